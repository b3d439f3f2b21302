// Licence templates served by `GET /licenses` and `GET /licenses/{name}` (Gitea API v1).
//
// Keys are SPDX licence identifiers, as in Gitea's options/license directory. The texts
// themselves live in ./licenses/*.ts; each file names its source. In short:
//   - MIT, BSD-2-Clause, BSD-3-Clause, ISC, Unlicense, 0BSD: the SPDX texts exactly as
//     Gitea 1.22 ships them (go-gitea/gitea options/license/*), with their placeholders.
//   - Apache-2.0, MPL-2.0, the GNU licences and CC0-1.0: the official plain-text
//     licences as published by their stewards (ASF, Mozilla, FSF, Creative Commons).
// Licence texts are reproduced verbatim, as their terms allow; none is modified.
//
// Several ids share a text: the SPDX `-only` and `-or-later` ids differ only in the
// notice a project puts in its files, not in the licence text, and the deprecated
// SPDX ids (`GPL-3.0`, `LGPL-3.0`, ...) are kept so that older clients keep working.

import { AGPL_3_0 } from './licenses/agpl-3.0.js';
import { APACHE_2_0 } from './licenses/apache-2.0.js';
import { CC0_1_0 } from './licenses/cc0-1.0.js';
import { GPL_2_0 } from './licenses/gpl-2.0.js';
import { GPL_3_0 } from './licenses/gpl-3.0.js';
import { LGPL_2_1 } from './licenses/lgpl-2.1.js';
import { LGPL_3_0 } from './licenses/lgpl-3.0.js';
import { MPL_2_0 } from './licenses/mpl-2.0.js';
import { BSD_2_CLAUSE, BSD_3_CLAUSE, ISC, MIT, UNLICENSE, ZERO_BSD } from './licenses/permissive.js';

const entries: ReadonlyArray<readonly [string, string]> = [
  ['0BSD', ZERO_BSD],
  ['AGPL-3.0', AGPL_3_0],
  ['AGPL-3.0-only', AGPL_3_0],
  ['AGPL-3.0-or-later', AGPL_3_0],
  ['Apache-2.0', APACHE_2_0],
  ['BSD-2-Clause', BSD_2_CLAUSE],
  ['BSD-3-Clause', BSD_3_CLAUSE],
  ['CC0-1.0', CC0_1_0],
  ['GPL-2.0', GPL_2_0],
  ['GPL-2.0-only', GPL_2_0],
  ['GPL-2.0-or-later', GPL_2_0],
  ['GPL-3.0', GPL_3_0],
  ['GPL-3.0-only', GPL_3_0],
  ['GPL-3.0-or-later', GPL_3_0],
  ['ISC', ISC],
  ['LGPL-2.1', LGPL_2_1],
  ['LGPL-2.1-only', LGPL_2_1],
  ['LGPL-2.1-or-later', LGPL_2_1],
  ['LGPL-3.0', LGPL_3_0],
  ['LGPL-3.0-only', LGPL_3_0],
  ['LGPL-3.0-or-later', LGPL_3_0],
  ['MIT', MIT],
  ['MPL-2.0', MPL_2_0],
  ['Unlicense', UNLICENSE],
];

/** SPDX id -> full licence text. */
export const licenseTemplates: ReadonlyMap<string, string> = new Map(entries);
