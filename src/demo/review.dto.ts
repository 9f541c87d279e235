import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

export const LANGUAGES = ['go', 'java', 'javascript', 'python', 'rust', 'typescript'] as const;
export const FOCUSES = ['correctness', 'performance', 'readability', 'security', 'tests'] as const;

export class ReviewDto {
  @JSONSchema({ description: 'The code to review' })
  @IsString()
  @MaxLength(20_000)
  code!: string;

  @JSONSchema({ description: `Its language: ${LANGUAGES.join(', ')}` })
  @IsIn(LANGUAGES)
  language!: string;

  @JSONSchema({ description: 'What to look at first (default: correctness)' })
  @IsOptional()
  @IsIn(FOCUSES)
  focus?: string;
}
