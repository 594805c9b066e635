import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { pageOf, presentFields, RecordNotFoundError, type ConditionalSource, type Page } from '@app/common';
import { WorkOrdersService } from '../work-orders/index.js';
import { Contractor, toCertification, toInsurance } from './contractor.entity.js';
import { ContractorsRepository } from './contractors.repository.js';
import { ContractorResponse } from './dto/contractor.response.js';
import type { CreateContractorDto } from './dto/create-contractor.dto.js';
import type { ListContractorsQuery } from './dto/list-contractors.query.js';
import type { UpdateContractorDto } from './dto/update-contractor.dto.js';

type ContractorFields = Omit<Contractor, 'teamId' | 'id' | 'createdAt' | 'updatedAt'>;

/** The fields a body may write as given; the nested arrays are rebuilt in `fieldsOf`. */
const PLAIN_FIELDS = [
  'externalRef',
  'companyName',
  'contactName',
  'email',
  'phoneNumber',
  'fullAddress',
  'status',
  'trades',
  'coveragePostcodes',
  'notes',
] as const;

/** Copies only the fields present in the body; nested items are rebuilt so no stray keys are stored. */
function fieldsOf(dto: UpdateContractorDto): Partial<ContractorFields> {
  const fields: Partial<ContractorFields> = presentFields(dto, PLAIN_FIELDS);
  if (dto.certifications) fields.certifications = dto.certifications.map(toCertification);
  if (dto.insurance) fields.insurance = dto.insurance.map(toInsurance);
  return fields;
}

@Injectable()
export class ContractorsService implements ConditionalSource {
  constructor(
    private readonly contractors: ContractorsRepository,
    private readonly workOrders: WorkOrdersService,
  ) {}

  /** `id` is chosen only for the demo team's example record (apps/api/src/demo-records.ts). */
  async create(teamId: string, dto: CreateContractorDto, id: string = randomUUID()): Promise<ContractorResponse> {
    await this.contractors.insert(teamId, {
      externalRef: null,
      email: null,
      phoneNumber: null,
      fullAddress: null,
      status: 'active',
      trades: [],
      coveragePostcodes: [],
      certifications: [],
      insurance: [],
      notes: null,
      ...fieldsOf(dto),
      id,
    } as Omit<Contractor, 'teamId'>);
    return this.get(teamId, id);
  }

  async list(teamId: string, query: ListContractorsQuery): Promise<Page<ContractorResponse>> {
    const [rows, total] = await this.contractors.list(teamId, query);
    return pageOf(rows.map(ContractorResponse.from), total, query);
  }

  async get(teamId: string, id: string): Promise<ContractorResponse> {
    const row = await this.contractors.findOne(teamId, id);
    if (!row) throw new RecordNotFoundError('Contractor');
    return ContractorResponse.from(row);
  }

  lock(teamId: string, id: string): Promise<boolean> {
    return this.contractors.lock(teamId, id);
  }

  /** GET one's answer with the row locked (`FOR UPDATE`), in one statement: a PUT's `previousAttributes`. */
  async getLocked(teamId: string, id: string): Promise<ContractorResponse | undefined> {
    const row = await this.contractors.findOne(teamId, id, { lock: 'FOR UPDATE' });
    return row && ContractorResponse.from(row);
  }

  /** Refused while work orders are assigned to the contractor. */
  async remove(teamId: string, id: string): Promise<void> {
    const check = (): Promise<void> => this.workOrders.refuseIfReferenced(teamId, 'contractorId', id, 'Contractor');
    if (!(await this.contractors.deleteChecked(teamId, id, check))) throw new RecordNotFoundError('Contractor');
  }

  async update(teamId: string, id: string, dto: UpdateContractorDto): Promise<ContractorResponse> {
    const updated = await this.contractors.update(teamId, id, fieldsOf(dto));
    if (!updated) throw new RecordNotFoundError('Contractor');
    return this.get(teamId, id);
  }
}
