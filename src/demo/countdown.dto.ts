import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class CountdownDto {
  /** Seconds to count down from (one step a second). */
  @IsInt()
  @Min(1)
  @Max(3600)
  seconds!: number;

  /** Names the run in `countdown_log`. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  label?: string;
}
