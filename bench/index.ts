/** `npm run bench`: every benchmark of the project. Figures are medians; the machine is noisy. */
import { benchBundle } from './bundle.js';
import { benchGenerate } from './generate.js';
import { benchMcp } from './mcp.js';
import { benchMock } from './mock.js';
import { benchSearch } from './search.js';

benchGenerate();
await benchMock();
benchSearch();
await benchBundle();
await benchMcp();
