import type { Logger } from '@kasa/service-kit';
import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import { MemoryReplyStreams } from './memoryReplyStreams';
import { RedisReplyStreams } from './redisReplyStreams';
import type { ReplySlots } from './replySlots';
import { MongoReplySlots, RedisReplySlots } from './replySlots';
import type { ReplyStreams } from './replyStreams';
import type { WriteGate } from '../conversations/writeGate';

/** Where replies being written live, and the concurrent-replies limit. */
export interface Replies {
  streams: ReplyStreams;
  slots: ReplySlots;
}

/**
 * Redis when the service has one (REDIS_URL: any replica follows and stops any reply, one limit for all), else this
 * process's memory for the replies and the database for the limit (one replica; the default of `npm start`).
 */
export async function createReplies(options: {
  db: Connection;
  redis?: Redis;
  maxConcurrentReplies: number;
  logger: Logger;
  /** Keeps the keys of deployments (or test runs) sharing one Redis apart; default `kasa:chat:`. */
  redisPrefix?: string;
  /** The process's queue of database writes (the limit's writes go through it without Redis). */
  writes?: WriteGate;
}): Promise<Replies> {
  const { redis, logger } = options;
  if (!redis) {
    return {
      streams: new MemoryReplyStreams(),
      slots: new MongoReplySlots(options.db, options.maxConcurrentReplies, options.writes),
    };
  }
  const prefix = options.redisPrefix ?? 'kasa:chat:';
  return {
    streams: await RedisReplyStreams.create(redis, { logger, prefix }),
    slots: new RedisReplySlots(redis, options.maxConcurrentReplies, prefix),
  };
}
