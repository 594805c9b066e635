export * from './units.module.js';
export * from './units.repository.js';
export * from './unit.entity.js';
export * from './units.service.js';
export { CreateUnitDto } from './dto/create-unit.dto.js';
export { UpdateUnitDto } from './dto/update-unit.dto.js';
export { UnitResponse } from './dto/unit.response.js';
