// Regenerates public/rubric-schema.json from the zod schema: `npm run schema`.
import { writeFileSync } from "node:fs";
import { jsonSchemaText } from "../lib/config/json-schema";

const target = new URL("../public/rubric-schema.json", import.meta.url);
writeFileSync(target, jsonSchemaText());
console.log(`wrote ${target.pathname}`);
