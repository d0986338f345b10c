import type { CreatePersonaRequest, Persona, UpdatePersonaRequest } from '@kasa/contracts';
import { ConflictError, NotFoundError } from '@kasa/service-kit';
import { Schema, Types, type Connection, type Model } from 'mongoose';
import { DEFAULT_PERSONAS } from './catalogue';

interface PersonaDocument extends Omit<Persona, 'id'> {
  _id: string;
  /** Null for Kasa's own personas; the owner's user id for an Enterprise custom persona. */
  ownerId: string | null;
  order: number;
}

const personaSchema = new Schema<PersonaDocument>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    expertise: { type: String, required: true },
    systemPrompt: { type: String, required: true },
    avatar: String,
    color: String,
    greeting: String,
    ownerId: { type: String, default: null, index: true },
    order: { type: Number, default: 0 },
  },
  { versionKey: false, collection: 'personas' },
);

/** How many custom personas one user may keep. */
export const MAX_CUSTOM_PERSONAS = 50;

const toPersona = ({ _id, ownerId: _owner, order: _order, ...rest }: PersonaDocument): Persona => ({
  id: _id,
  ...rest,
});

export class PersonaStore {
  private readonly model: Model<PersonaDocument>;

  constructor(connection: Connection) {
    this.model = connection.models.Persona ?? connection.model<PersonaDocument>('Persona', personaSchema);
  }

  /** Inserts or refreshes the built-in personas; idempotent, so every replica may run it on start. */
  async seed(): Promise<void> {
    await Promise.all(
      DEFAULT_PERSONAS.map(({ id, ...persona }, order) =>
        this.model.updateOne({ _id: id }, { $set: { ...persona, ownerId: null, order } }, { upsert: true }),
      ),
    );
  }

  /** A persona the user may talk to: one of Kasa's, or an Enterprise user's own; null when there is none. */
  async findForUser(id: string, userId: string): Promise<Persona | null> {
    const doc = await this.model.findOne({ _id: id, ownerId: { $in: [null, userId] } }).lean();
    if (!doc) return null;
    return toPersona(doc);
  }

  /** The user's own custom personas, oldest first. */
  async listOwn(userId: string): Promise<Persona[]> {
    const docs = await this.model.find({ ownerId: userId }).sort({ order: 1, _id: 1 }).lean();
    return docs.map(toPersona);
  }

  async createOwn(userId: string, input: CreatePersonaRequest): Promise<Persona> {
    const count = await this.model.countDocuments({ ownerId: userId });
    if (count >= MAX_CUSTOM_PERSONAS)
      throw new ConflictError(`You can keep at most ${MAX_CUSTOM_PERSONAS} custom personas`);
    const doc = await this.model.create({
      _id: new Types.ObjectId().toString(),
      ...input,
      ownerId: userId,
      order: Date.now(),
    });
    return toPersona(doc.toObject());
  }

  async updateOwn(userId: string, id: string, input: UpdatePersonaRequest): Promise<Persona> {
    const doc = await this.model.findOneAndUpdate({ _id: id, ownerId: userId }, { $set: input }, { new: true }).lean();
    if (!doc) throw new NotFoundError('Persona not found');
    return toPersona(doc);
  }

  async deleteOwn(userId: string, id: string): Promise<void> {
    const result = await this.model.deleteOne({ _id: id, ownerId: userId });
    if (result.deletedCount === 0) throw new NotFoundError('Persona not found');
  }

  /** Kasa's personas, in their fixed order. */
  async listBuiltIn(): Promise<Persona[]> {
    const docs = await this.model.find({ ownerId: null }).sort({ order: 1 }).lean();
    return docs.map(toPersona);
  }
}
