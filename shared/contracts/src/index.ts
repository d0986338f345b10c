export * from './zod';
export * from './common';
export * from './auth';
export * from './chat';
export * from './voice';
export * from './status';
export * from './events';
export * from './openapi';
