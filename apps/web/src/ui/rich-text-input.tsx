import { Skeleton } from "antd";
import { lazy, Suspense } from "react";
import type { RichTextEditorProps } from "./rich-text-editor.tsx";

// The editor (Tiptap and ProseMirror) is a chunk of its own, loaded when a form first shows one.
const RichTextEditor = lazy(() => import("./rich-text-editor.tsx"));

/** A rich-text field input for the CRUD layer (`input: (props) => <RichTextInput {...props} />`). */
export function RichTextInput(props: RichTextEditorProps) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} data-testid={`${props.testId}-loading`} />}>
      <RichTextEditor {...props} />
    </Suspense>
  );
}
