import type { ThemeSettings } from '@kasa/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** One saved theme per user, so it follows them to every browser they sign in on. */
export interface ThemePreferenceDocument {
  _id: Types.ObjectId;
  userId: string;
  theme: ThemeSettings;
  createdAt: Date;
  updatedAt: Date;
}

const themePreferenceSchema = new Schema<ThemePreferenceDocument>(
  {
    userId: { type: String, required: true, unique: true },
    // Validated by the ThemeSettings schema before it is stored; kept as one plain object.
    theme: { type: Schema.Types.Mixed, required: true },
  },
  { timestamps: true, versionKey: false, collection: 'theme_preferences', minimize: false },
);

export function themePreferenceModel(connection: Connection): Model<ThemePreferenceDocument> {
  return (
    connection.models.ThemePreference ??
    connection.model<ThemePreferenceDocument>('ThemePreference', themePreferenceSchema)
  );
}
