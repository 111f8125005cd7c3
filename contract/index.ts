export * from './envelope';
export * from './roles';
export * from './access';
export * from './entity';
export * from './entities';
export * from './registry';
export * from './types';
export * from './money';
