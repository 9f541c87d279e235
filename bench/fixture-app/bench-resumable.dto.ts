import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class BenchResumableDto {
  /** Milliseconds between progress reports. */
  @IsOptional()
  @IsInt()
  @Min(10)
  @Max(60_000)
  stepMs?: number;
}
