import { NextResponse } from "next/server";
import { readEnv } from "../../../lib/env/read-env";
import { checkDraft } from "../../../lib/engine/check-draft";
import { priceOf } from "../../../lib/judge/pricing";
import { dashboardAllowList, dashboardAllowServer } from "../../../lib/cli/live-for-run";
import { ValidateBody } from "../../../components/authoring/api-types";
import { errorResponse, parseJson } from "../respond";

// POST { yaml } -> { issues, plan }: the engine's own load-time issues (the
// editor shows them as markers beside monaco-yaml's schema markers) and the
// plan panel's figures. Stateless: nothing is stored.
export async function POST(request: Request) {
  const body = await parseJson(request, ValidateBody);
  if (!body.ok) return body.response;
  const settings = readEnv();
  if (!settings.ok) return errorResponse("unavailable", settings.message);
  const { judgeModel, anthropicApiKey } = settings.value;
  // Live evals whose server the allow-list refuses will defer: the plan says so while typing.
  const allowList = await dashboardAllowList(settings.value);
  if (!allowList.ok) return errorResponse("unavailable", allowList.message);
  return NextResponse.json(
    checkDraft({
      text: body.value.yaml,
      file: body.value.file ?? "suite.yaml",
      priceOf,
      defaultModel: judgeModel,
      ...(anthropicApiKey ? {} : { judgeUnavailable: "no ANTHROPIC_API_KEY on the server: a run would defer it" }),
      allowServer: dashboardAllowServer(allowList.value),
    }),
  );
}
