import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { inputSchemaFor } from '../discovery/input-schema.factory.js';
import { paramHeadersOf } from '../discovery/param-headers.reader.js';
import { McpHeader } from './mcp-header.decorator.js';

class Below {
  @McpHeader('Region')
  @JSONSchema({ description: 'Where it runs', examples: ['eu'] })
  @IsString()
  region!: string;
}

class Above {
  @JSONSchema({ description: 'Where it runs' })
  @McpHeader('Region')
  @IsString()
  region!: string;
}

describe('@McpHeader', () => {
  it('keeps an @JSONSchema written below it, adding the mark', () => {
    const schema = inputSchemaFor(Below);
    expect((schema.properties as Record<string, unknown>).region).toEqual({
      type: 'string',
      description: 'Where it runs',
      examples: ['eu'],
      'x-mcp-header': 'Region',
    });
    expect(paramHeadersOf('t', schema, Below)).toEqual([
      { name: 'Region', header: 'mcp-param-region', path: ['region'], type: 'string' },
    ]);
  });

  it('an @JSONSchema above it replaces the mark: refused at startup, not lost silently', () => {
    expect(() => paramHeadersOf('t', inputSchemaFor(Above), Above)).toThrow(
      /tool "t", property "region": .*missing from the schema/,
    );
  });
});
