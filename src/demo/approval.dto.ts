import { IsString, MinLength } from 'class-validator';

export class DeployDto {
  @IsString()
  @MinLength(1)
  environment!: string;
}
