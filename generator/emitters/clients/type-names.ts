/** Names of generated types (docs and other emitters use them too). */
import type { ActionIR } from '../../ir.js';
import { pascalCase } from '../naming.js';

/** Type name of a record. */
export const recordTypeName = (record: string) => pascalCase(record);
/** Type name of a meta shape. */
export const metaTypeName = (meta: string) => `${pascalCase(meta)}Meta`;
/** Type name of an action's params. */
export const paramsTypeName = (entity: string, action: string) => `${pascalCase(entity)}${pascalCase(action)}Params`;
/** Type name of an entity's searchable fields. */
export const searchFieldsTypeName = (entity: string) => `${pascalCase(entity)}SearchFields`;
/** Type name of the connector's auth_config. */
export const AUTH_CONFIG_TYPE = 'AuthConfig';

/** Whether a params type has a required member (then the method's params argument is required). */
export function paramsRequired(action: ActionIR): boolean {
  return action.params.some((p) => p.required);
}
