import type { UiLanguage } from '@kasa/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** One record per user of the interface language they picked, so that it follows them to every browser. */
export interface LanguagePreferenceDocument {
  _id: Types.ObjectId;
  userId: string;
  language: UiLanguage;
  createdAt: Date;
  updatedAt: Date;
}

const languagePreferenceSchema = new Schema<LanguagePreferenceDocument>(
  {
    userId: { type: String, required: true, unique: true },
    // Validated by the LanguagePreference schema before it is stored.
    language: { type: String, required: true },
  },
  { timestamps: true, versionKey: false, collection: 'language_preferences' },
);

export function languagePreferenceModel(connection: Connection): Model<LanguagePreferenceDocument> {
  return (
    connection.models.LanguagePreference ??
    connection.model<LanguagePreferenceDocument>('LanguagePreference', languagePreferenceSchema)
  );
}
