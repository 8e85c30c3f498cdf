import { redirect } from "next/navigation";

// The suites list is the dashboard's front door.
export default function Home() {
  redirect("/suites");
}
