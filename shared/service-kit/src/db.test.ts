import mongoose from 'mongoose';
import {
  initModels,
  isDatabaseUnavailableError,
  isTransientDatabaseError,
  whenDatabaseAnswers,
  withTransientRetry,
} from './db';

const busy = Object.assign(new Error('[collection.go:191] database is locked (5) (SQLITE_BUSY)'), {
  name: 'MongoServerError',
});
const duplicate = Object.assign(new Error('E11000 duplicate key error'), { name: 'MongoServerError', code: 11000 });

/** What a command written to a connection the database has just closed throws, as the driver passes it on. */
const endedByTheOtherParty = Object.assign(new Error('This socket has been ended by the other party'), {
  code: 'EPIPE',
  stack: [
    'Error: This socket has been ended by the other party',
    '    at Socket.writeAfterFIN [as write] (node:net:566:14)',
    '    at Connection.writeCommand (/srv/kasa/node_modules/mongodb/lib/cmap/connection.js:392:25)',
  ].join('\n'),
});

describe('isTransientDatabaseError', () => {
  it('retries lock races, write conflicts, retryable labels and dropped connections', () => {
    expect(isTransientDatabaseError(busy)).toBe(true);
    expect(isTransientDatabaseError({ name: 'MongoServerError', code: 112, message: 'WriteConflict' })).toBe(true);
    expect(isTransientDatabaseError({ errorLabels: new Set(['RetryableWriteError']), message: 'x' })).toBe(true);
    expect(isTransientDatabaseError({ name: 'MongoNetworkError', message: 'socket closed' })).toBe(true);
  });

  it('does not retry what would fail again', () => {
    expect(isTransientDatabaseError(duplicate)).toBe(false);
    expect(isTransientDatabaseError(new Error('Validation failed'))).toBe(false);
    expect(isTransientDatabaseError(undefined)).toBe(false);
    expect(isTransientDatabaseError('database is locked')).toBe(false);
  });
});

describe('withTransientRetry', () => {
  it('returns the result once a busy database lets the operation through', async () => {
    let calls = 0;
    const result = await withTransientRetry(
      async () => {
        calls += 1;
        if (calls < 3) throw busy;
        return 'stored';
      },
      { what: 'test write' },
    );
    expect(result).toBe('stored');
    expect(calls).toBe(3);
  });

  it('gives up after the last attempt with the database’s own error', async () => {
    let calls = 0;
    const failing = withTransientRetry(
      async () => {
        calls += 1;
        throw busy;
      },
      { what: 'test write', attempts: 2 },
    );
    await expect(failing).rejects.toBe(busy);
    expect(calls).toBe(2);
  });

  it('does not repeat an operation that failed for good', async () => {
    let calls = 0;
    await expect(
      withTransientRetry(
        async () => {
          calls += 1;
          throw duplicate;
        },
        { what: 'test write' },
      ),
    ).rejects.toBe(duplicate);
    expect(calls).toBe(1);
  });
});

describe('isDatabaseUnavailableError', () => {
  it('recognizes a database that cannot be reached, also as the cause of another error', () => {
    expect(isDatabaseUnavailableError({ name: 'MongoServerSelectionError', message: 'connect ECONNREFUSED' })).toBe(
      true,
    );
    expect(isDatabaseUnavailableError({ name: 'PoolClearedOnNetworkError', message: 'pool cleared' })).toBe(true);
    expect(
      isDatabaseUnavailableError({ name: 'MongooseError', message: 'Operation `x.find()` buffering timed out' }),
    ).toBe(true);
    expect(
      isDatabaseUnavailableError(new Error('upload failed', { cause: { name: 'MongoNetworkError', message: 'x' } })),
    ).toBe(true);
  });

  it("recognizes the driver's network errors by class, labels and shutdown codes whatever their names", () => {
    const { MongoNetworkError } = mongoose.mongo;
    class RenamedNetworkError extends MongoNetworkError {
      override get name() {
        return 'MongoSomeFutureNetworkError';
      }
    }
    expect(isDatabaseUnavailableError(new RenamedNetworkError('connection 4 to 127.0.0.1:27017 closed'))).toBe(true);
    expect(isDatabaseUnavailableError({ name: 'MongoError', message: 'x', errorLabels: ['ResetPool'] })).toBe(true);
    expect(isDatabaseUnavailableError({ name: 'MongoServerError', message: 'shutting down', code: 91 })).toBe(true);
    expect(isDatabaseUnavailableError({ name: 'MongoServerError', message: 'x', code: 11600 })).toBe(true);
  });

  it('recognizes a socket error the driver passed on unwrapped, and only from the driver', () => {
    expect(isDatabaseUnavailableError(endedByTheOtherParty)).toBe(true);
    expect(isTransientDatabaseError(endedByTheOtherParty)).toBe(true);
    const fromAnotherClient = Object.assign(new Error('read ECONNRESET'), {
      code: 'ECONNRESET',
      stack: 'Error: read ECONNRESET\n    at TLSWrap.onStreamRead (node:internal/stream_base_commons:218:20)',
    });
    expect(isDatabaseUnavailableError(fromAnotherClient)).toBe(false);
    expect(isTransientDatabaseError(fromAnotherClient)).toBe(false);
  });

  it('leaves alone what a retry would not fix', () => {
    expect(isDatabaseUnavailableError(duplicate)).toBe(false);
    expect(isDatabaseUnavailableError(busy)).toBe(false);
    expect(isDatabaseUnavailableError(new Error('Validation failed'))).toBe(false);
    expect(isDatabaseUnavailableError(undefined)).toBe(false);
  });
});

describe('whenDatabaseAnswers', () => {
  const logger = { warn: jest.fn() } as unknown as Parameters<typeof whenDatabaseAnswers>[1]['logger'];
  const away = () =>
    Object.assign(new Error('Operation `messages.createCollection()` buffering timed out after 10000ms'), {
      name: 'MongooseError',
    });

  it('runs a start step again while the database does not answer, then gives its result', async () => {
    let calls = 0;
    const step = async () => {
      calls += 1;
      if (calls < 3) throw away();
      return 'indexes ready';
    };
    await expect(whenDatabaseAnswers(step, { logger, what: 'indexes' })).resolves.toBe('indexes ready');
    expect(calls).toBe(3);
  });

  it('throws any other error at once, and a database that stays away once its time is up', async () => {
    let calls = 0;
    const wrong = async () => {
      calls += 1;
      throw new Error('index options conflict');
    };
    await expect(whenDatabaseAnswers(wrong, { logger, what: 'indexes' })).rejects.toThrow('index options conflict');
    expect(calls).toBe(1);
    await expect(
      whenDatabaseAnswers(() => Promise.reject(away()), { logger, what: 'indexes', withinMs: 300 }),
    ).rejects.toThrow(/buffering timed out/);
  });
});

describe('initModels', () => {
  it('drops the promise mongoose keeps after a failed init, so that the next call tries again', async () => {
    let calls = 0;
    // Model.init() as mongoose has it: the first promise is kept and handed to every later call, a rejected one too.
    const model = {
      $init: undefined as Promise<void> | undefined,
      init() {
        this.$init ??= (calls += 1) === 1 ? Promise.reject(new Error('buffering timed out')) : Promise.resolve();
        return this.$init;
      },
    };
    const asModel = model as unknown as Parameters<typeof initModels>[0];
    await expect(initModels(asModel)).rejects.toThrow('buffering timed out');
    await expect(initModels(asModel)).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
