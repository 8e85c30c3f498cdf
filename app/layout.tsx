import type { ReactNode } from "react";
import { TopBar } from "../components/ui/top-bar";
import "./globals.css";

// Every page names itself: "Rubric Studio · Runs", "Rubric Studio · Run 1a2b3c4d"...
export const metadata = {
  title: { default: "Rubric Studio", template: "Rubric Studio · %s" },
  description: "Author, run and inspect LLM-as-judge rubrics.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <TopBar />
        {children}
      </body>
    </html>
  );
}
