import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';

export class ExportProjectDto {
  @IsString()
  @MinLength(1)
  project!: string;

  /** How many files to export (each takes `delayMs`). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  files?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  delayMs?: number;
}
