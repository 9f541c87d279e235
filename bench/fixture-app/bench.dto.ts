import { IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

export class BenchSeedDto {
  /** Tasks to add to the store. */
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  count!: number;

  /** How many of them belong to the caller (their ids are returned); the rest to other owners. */
  @IsInt()
  @Min(0)
  mine!: number;
}

export class BenchStatsDto {
  /** Run a full GC first (the process must run with --expose-gc). */
  @IsOptional()
  @IsBoolean()
  gc?: boolean;
}

export class BenchIdsDto {
  @IsArray()
  @IsString({ each: true })
  ids!: string[];
}
