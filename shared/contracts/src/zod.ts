import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Every schema in this package is declared with this `z`, so each can carry OpenAPI metadata.
extendZodWithOpenApi(z);

export { z };
