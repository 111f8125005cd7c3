export * from './envelope';
export * from './roles';
export * from './access';
export * from './entities';
export * from './types';
