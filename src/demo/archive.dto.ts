import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

export class ArchiveProjectDto {
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  project!: string;

  /** How many files to archive (each takes `delayMs`; default 20). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  files?: number;

  /** The time one file takes, in ms (default 500). */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  delayMs?: number;

  /** The archive format; when left out, the tool asks for it. */
  @IsOptional()
  @IsIn(['zip', 'tar'])
  format?: 'zip' | 'tar';
}
