/** `npm run bench`: every benchmark of the project. Figures are medians; the machine is noisy. */
import { benchBundle } from './bundle.js';
import { benchCli } from './cli.js';
import { benchGenerate } from './generate.js';
import { benchMock } from './mock.js';
import { benchSearch } from './search.js';

benchCli();
benchGenerate();
await benchMock();
benchSearch();
await benchBundle();
