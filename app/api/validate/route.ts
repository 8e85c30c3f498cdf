import { NextResponse } from "next/server";
import { readEnv } from "../../../lib/env/read-env";
import { dashboardAllowList } from "../../../lib/live/server-allow-list";
import { dashboardProviders } from "../../../lib/judge/server-providers";
import { suiteWorkers } from "../../../lib/offthread/suite-workers";
import { ValidateBody } from "../../../components/authoring/api-types";
import { errorResponse, parseJson } from "../respond";

// POST { yaml } -> { issues, plan }: the engine's own load-time issues (the
// editor shows them as markers beside monaco-yaml's schema markers) and the
// plan panel's figures. Stateless: nothing is stored. The check runs on a
// worker thread under a time limit: the editor posts on every pause, and no
// text may stall the rest of the server.
export async function POST(request: Request) {
  const body = await parseJson(request, ValidateBody);
  if (!body.ok) return body.response;
  const settings = readEnv();
  if (!settings.ok) return errorResponse("unavailable", settings.message);
  const { judgeModel } = settings.value;
  // Live evals whose server the allow-list refuses will defer: the plan says so while typing.
  const allowList = await dashboardAllowList(settings.value);
  if (!allowList.ok) return errorResponse("unavailable", allowList.message);
  // The suite may use only the server's providers; each model's provider (and a missing key) is
  // shown. No key value leaves the server.
  const providers = await dashboardProviders(settings.value);
  if (!providers.ok) return errorResponse("unavailable", providers.message);
  const checked = await suiteWorkers().run(
    {
      kind: "draft",
      text: body.value.yaml,
      file: body.value.file ?? "suite.yaml",
      defaultModel: judgeModel,
      ...(allowList.value ? { allowListed: allowList.value.servers } : {}),
      providers: providers.value,
    },
    { signal: request.signal },
  );
  if (!checked.ok) return errorResponse(checked.code, checked.message);
  return NextResponse.json(checked.value);
}
