import type { ReactNode } from "react";
import { TopBar } from "../components/ui/top-bar";
import "./globals.css";

export const metadata = {
  title: "Rubric Studio",
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
