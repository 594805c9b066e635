export { DiscoveryModule } from './discovery.module.js';
