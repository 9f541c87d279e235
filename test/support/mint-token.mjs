// A token command for the CLI's --token-cmd in tests: prints an HS256 token signed with MINT_SECRET, with the
// claims of MINT_CLAIMS (JSON) and an `exp` MINT_TTL seconds ahead; appends a line to MINT_LOG (when set) per run.
import { appendFileSync } from 'node:fs';
import jwt from 'jsonwebtoken';

const { MINT_SECRET, MINT_CLAIMS = '{}', MINT_TTL = '60', MINT_LOG } = process.env;
const exp = Math.floor(Date.now() / 1000) + Number(MINT_TTL);
if (MINT_LOG) appendFileSync(MINT_LOG, `${exp}\n`);
console.log(jwt.sign({ ...JSON.parse(MINT_CLAIMS), exp }, MINT_SECRET, { algorithm: 'HS256' }));
