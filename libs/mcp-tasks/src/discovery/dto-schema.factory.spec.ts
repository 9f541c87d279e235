import { describe, expect, it } from '@jest/globals';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { JSONSchema } from 'class-validator-jsonschema';
import { dtoSchema } from './dto-schema.factory.js';

/** The decorator's schema type (OpenAPI's SchemaObject) has no 2020-12 keywords such as `$defs`. */
type Decorated = Exclude<Parameters<typeof JSONSchema>[0], Function>;

const ADDRESS = { $anchor: 'addressDef', type: 'object', properties: { city: { type: 'string' } } };

const OWN_DEFS = {
  type: 'object',
  $defs: { address: ADDRESS },
  properties: { address: { $ref: '#/$defs/address' } },
  additionalProperties: false,
};

@JSONSchema(() => OWN_DEFS as unknown as Decorated)
class OwnDefsDto {
  @IsOptional()
  address?: object;
}

class LabelDto {
  @IsString()
  text!: string;
}

@JSONSchema({ $defs: { address: ADDRESS }, properties: { home: { $ref: '#/$defs/address' } } } as unknown as Decorated)
class MixedDefsDto {
  @ValidateNested()
  @Type(() => LabelDto)
  label!: LabelDto;

  @IsOptional()
  home?: object;
}

describe('dtoSchema', () => {
  it("keeps the $defs a DTO's own @JSONSchema declares, and its $ref to them", () => {
    expect(dtoSchema(OwnDefsDto)).toEqual(OWN_DEFS);
  });

  it('adds nested DTOs under $defs beside the ones the DTO declares', () => {
    const schema = dtoSchema(MixedDefsDto);
    expect(schema.$defs).toEqual({
      address: ADDRESS,
      LabelDto: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    expect(schema.properties).toMatchObject({ label: { $ref: '#/$defs/LabelDto' }, home: { $ref: '#/$defs/address' } });
  });
});
