export * from './contractors.module.js';
export * from './contractor.entity.js';
export * from './contractors.service.js';
export { CreateContractorDto } from './dto/create-contractor.dto.js';
export { UpdateContractorDto } from './dto/update-contractor.dto.js';
export { ContractorResponse } from './dto/contractor.response.js';
