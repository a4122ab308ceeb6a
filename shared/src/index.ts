export * from './errors';
export * from './ids';
