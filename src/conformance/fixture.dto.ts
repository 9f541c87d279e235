import { IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';

export class GreetDto {
  @IsString()
  name!: string;
}

export class SlowComputeDto {
  @IsNumber()
  @Min(0)
  @Max(3600)
  seconds!: number;

  @IsOptional()
  @IsString()
  label?: string;
}

export class ConfirmDeleteDto {
  @IsString()
  filename!: string;
}
