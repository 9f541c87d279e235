import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class RelDurableDto {
  /** Steps to run, each `stepMs` long, with progress after each. */
  @IsInt()
  @Min(1)
  @Max(10_000)
  steps!: number;

  @IsInt()
  @Min(0)
  @Max(60_000)
  stepMs!: number;

  /** Ask (key `go`) before the first step. */
  @IsOptional()
  @IsBoolean()
  ask?: boolean;

  /** Checkpoint after every step, and start from the last checkpoint. */
  @IsOptional()
  @IsBoolean()
  checkpoint?: boolean;

  /**
   * Carry on when the run's signal aborts, as a tool that ignores it would: then only the library's fence stops its
   * writes (with `checkpoint`, the first refused one ends the run).
   */
  @IsOptional()
  @IsBoolean()
  ignoreSignal?: boolean;

  /** Shown in the ledger (which case of a phase this is). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  label?: string;
}
