export * from './landlords.module.js';
export * from './landlord.entity.js';
export * from './landlords.service.js';
export { CreateLandlordDto } from './dto/create-landlord.dto.js';
export { UpdateLandlordDto } from './dto/update-landlord.dto.js';
export { LandlordResponse } from './dto/landlord.response.js';
