import type { Handler } from '../kit.js';
import { API_COMPAT_VERSION } from '../../version.js';

export const getVersion: Handler<'getVersion'> = async () => ({ status: 200, body: { version: API_COMPAT_VERSION } });
