import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

export class RelStatsDto {
  /** Run a full GC first (the process must run with --expose-gc). */
  @IsOptional()
  @IsBoolean()
  gc?: boolean;
}

/** How the secret is thrown. */
export const LEAK_FORMS = ['error', 'type-error', 'cause', 'string', 'object', 'http-500', 'rejected-promise'] as const;

export class RelLeakDto {
  @IsIn(LEAK_FORMS)
  form!: (typeof LEAK_FORMS)[number];
}

export class RelRoundsDto {
  /** Input keys asked one after another (each earlier key is asked again in between). */
  @IsInt()
  @Min(1)
  @Max(20)
  rounds!: number;
}
