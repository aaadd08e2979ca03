import pkg from '../../package.json';

export const APP_NAME = 'Sift';
export const VERSION: string = pkg.version;
