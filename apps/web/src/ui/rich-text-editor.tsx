import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from "@ant-design/icons";
import Image from "@tiptap/extension-image";
import Link from "@tiptap/extension-link";
import { type Editor, EditorContent, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Alert, Button, Divider, Input, Popover, Space, Tooltip } from "antd";
import { type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ACCEPT, uploadMedia, uploadProblem } from "./media-upload.ts";
import "./rich-text-editor.css";

export interface RichTextEditorProps {
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId: string;
}

/** Links the editor makes: http, https and mailto only (the server's sanitiser keeps nothing else). */
const LINK = /^(https?:\/\/|mailto:)/i;

function ToolButton({
  label,
  icon,
  active,
  onClick,
  testId,
}: {
  label: string;
  icon: ReactNode;
  active?: boolean;
  onClick: () => void;
  testId: string;
}) {
  return (
    <Tooltip title={label}>
      <Button
        size="small"
        type={active ? "primary" : "text"}
        icon={icon}
        aria-label={label}
        aria-pressed={active}
        onClick={onClick}
        data-testid={testId}
      />
    </Tooltip>
  );
}

function LinkButton({ editor, testId }: { editor: Editor; testId: string }) {
  const { t } = useTranslation(["content", "common"]);
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState("");
  const apply = () => {
    const chain = editor.chain().focus().extendMarkRange("link");
    if (LINK.test(href.trim())) chain.setLink({ href: href.trim() }).run();
    else chain.unsetLink().run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setHref((editor.getAttributes("link").href as string | undefined) ?? "https://");
      }}
      trigger="click"
      content={
        <Space.Compact>
          <Input
            value={href}
            onChange={(e) => setHref(e.target.value)}
            onPressEnter={apply}
            aria-label={t("editor.linkAddress")}
            placeholder={t("editor.linkAddress")}
            style={{ width: 280 }}
            data-testid={`${testId}-link-input`}
          />
          <Button type="primary" onClick={apply} data-testid={`${testId}-link-apply`}>
            {t("common:actions.ok")}
          </Button>
        </Space.Compact>
      }
    >
      <span>
        <ToolButton
          label={t("editor.link")}
          icon={<LinkOutlined />}
          active={editor.isActive("link")}
          onClick={() => undefined}
          testId={`${testId}-link`}
        />
      </span>
    </Popover>
  );
}

/**
 * The rich-text input of content forms (Tiptap: paragraphs, headings, lists, quotes, links,
 * pictures uploaded to the media store). Its value is HTML, "" when empty; the server sanitises
 * whatever arrives. Loaded on demand through `rich-text-input.tsx`.
 */
export default function RichTextEditor({ value, onChange, testId }: RichTextEditorProps) {
  const { t } = useTranslation("content");
  const picker = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: false, heading: { levels: [2, 3, 4] } }),
      Link.configure({ openOnClick: false, autolink: true, protocols: ["mailto"], defaultProtocol: "https" }),
      Image.configure({ inline: false }),
    ],
    content: typeof value === "string" ? value : "",
    shouldRerenderOnTransaction: true,
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? "" : e.getHTML()),
  });

  const insertImage = async (file: File | undefined) => {
    if (!file || !editor) return;
    setBusy(true);
    setProblem(null);
    try {
      const stored = await uploadMedia(file, "image");
      editor.chain().focus().setImage({ src: stored.url, alt: stored.name }).run();
    } catch (error) {
      setProblem(uploadProblem(error));
    } finally {
      setBusy(false);
      if (picker.current) picker.current.value = "";
    }
  };

  if (!editor) return null;
  const run = (f: (e: Editor) => void) => () => f(editor);
  return (
    <div className="ess-rich-text" data-testid={testId}>
      <Space size={2} wrap style={{ marginBottom: 4 }}>
        <ToolButton
          label={t("editor.bold")}
          icon={<BoldOutlined />}
          active={editor.isActive("bold")}
          onClick={run((e) => e.chain().focus().toggleBold().run())}
          testId={`${testId}-bold`}
        />
        <ToolButton
          label={t("editor.italic")}
          icon={<ItalicOutlined />}
          active={editor.isActive("italic")}
          onClick={run((e) => e.chain().focus().toggleItalic().run())}
          testId={`${testId}-italic`}
        />
        <ToolButton
          label={t("editor.strike")}
          icon={<StrikethroughOutlined />}
          active={editor.isActive("strike")}
          onClick={run((e) => e.chain().focus().toggleStrike().run())}
          testId={`${testId}-strike`}
        />
        <Divider type="vertical" />
        <ToolButton
          label={t("editor.heading")}
          icon={<span style={{ fontWeight: 600 }}>H</span>}
          active={editor.isActive("heading", { level: 2 })}
          onClick={run((e) => e.chain().focus().toggleHeading({ level: 2 }).run())}
          testId={`${testId}-heading`}
        />
        <ToolButton
          label={t("editor.bulletList")}
          icon={<UnorderedListOutlined />}
          active={editor.isActive("bulletList")}
          onClick={run((e) => e.chain().focus().toggleBulletList().run())}
          testId={`${testId}-bullet-list`}
        />
        <ToolButton
          label={t("editor.orderedList")}
          icon={<OrderedListOutlined />}
          active={editor.isActive("orderedList")}
          onClick={run((e) => e.chain().focus().toggleOrderedList().run())}
          testId={`${testId}-ordered-list`}
        />
        <ToolButton
          label={t("editor.blockquote")}
          icon={<span style={{ fontWeight: 600 }}>❝</span>}
          active={editor.isActive("blockquote")}
          onClick={run((e) => e.chain().focus().toggleBlockquote().run())}
          testId={`${testId}-blockquote`}
        />
        <Divider type="vertical" />
        <LinkButton editor={editor} testId={testId} />
        <ToolButton
          label={t("editor.image")}
          icon={<PictureOutlined spin={busy} />}
          onClick={() => picker.current?.click()}
          testId={`${testId}-image`}
        />
        <Divider type="vertical" />
        <ToolButton
          label={t("editor.undo")}
          icon={<UndoOutlined />}
          onClick={run((e) => e.chain().focus().undo().run())}
          testId={`${testId}-undo`}
        />
        <ToolButton
          label={t("editor.redo")}
          icon={<RedoOutlined />}
          onClick={run((e) => e.chain().focus().redo().run())}
          testId={`${testId}-redo`}
        />
      </Space>
      <input
        ref={picker}
        type="file"
        style={{ display: "none" }}
        accept={ACCEPT.image}
        data-testid={`${testId}-image-file`}
        onChange={(e) => void insertImage(e.target.files?.[0])}
      />
      <EditorContent
        editor={editor}
        data-testid={`${testId}-content`}
        style={{
          border: "1px solid var(--ant-color-border, #d9d9d9)",
          borderRadius: 6,
          padding: "4px 11px",
          minHeight: 180,
          maxHeight: 420,
          overflowY: "auto",
        }}
      />
      {problem && <Alert type="error" showIcon title={problem} data-testid={`${testId}-error`} />}
    </div>
  );
}
