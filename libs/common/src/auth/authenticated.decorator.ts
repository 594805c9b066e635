import { applyDecorators } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-responses.js';

export const API_KEY_SCHEME = 'ApiKey';

/** Marks a controller as API-key protected in the OpenAPI document (the global guard enforces it). */
export const Authenticated = (): ClassDecorator => applyDecorators(ApiSecurity(API_KEY_SCHEME), ApiErrors());
