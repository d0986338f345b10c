import type { TourPreferences } from '@kasa/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** One record per user of the guided tours they completed or skipped, so that those tours stay away everywhere. */
export interface TourPreferenceDocument {
  _id: Types.ObjectId;
  userId: string;
  tours: TourPreferences;
  createdAt: Date;
  updatedAt: Date;
}

const tourPreferenceSchema = new Schema<TourPreferenceDocument>(
  {
    userId: { type: String, required: true, unique: true },
    // Validated by the TourPreferences schema before it is stored; kept as one plain object.
    tours: { type: Schema.Types.Mixed, required: true },
  },
  { timestamps: true, versionKey: false, collection: 'tour_preferences', minimize: false },
);

export function tourPreferenceModel(connection: Connection): Model<TourPreferenceDocument> {
  return (
    connection.models.TourPreference ?? connection.model<TourPreferenceDocument>('TourPreference', tourPreferenceSchema)
  );
}
