import { IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** `test_prompt_with_arguments`: two required strings. */
export class PromptWithArgumentsDto {
  @JSONSchema({ description: 'First test argument' })
  @IsString()
  arg1!: string;

  @JSONSchema({ description: 'Second test argument' })
  @IsString()
  arg2!: string;
}

/** `test_prompt_with_embedded_resource`: the URI to embed. */
export class EmbeddedResourcePromptDto {
  @JSONSchema({ description: 'URI of the resource to embed' })
  @IsString()
  resourceUri!: string;
}
