import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { McpHeader } from '@mcp-tasks/nestjs';

export class UsageDto {
  /** The tenant: clients repeat it in `Mcp-Param-Tenant-Id`, so a load balancer can route on it. */
  @McpHeader('Tenant-Id')
  @IsString()
  @MaxLength(64)
  tenantId!: string;

  /** A month, `YYYY-MM` (default: the current one). */
  @IsOptional()
  @Matches(/^\d{4}-(0[1-9]|1[0-2])$/)
  month?: string;
}
