/**
 * Messages to the end users' app and the console (spec §3 Message) and end users' feedback
 * (spec §3 Feedback, §4 feedback type and state).
 */

/** Where a message is shown: the end users' app, the web console, or both. */
export const MESSAGE_TERMINALS = ["app", "web", "both"] as const;
export type MessageTerminal = (typeof MESSAGE_TERMINALS)[number];

/**
 * Who a message is for, always within the sender's data scope: everyone the sender sees, the
 * accounts of one channel organisation's subtree, or chosen accounts.
 */
export const MESSAGE_AUDIENCES = ["everyone", "organisation", "users"] as const;
export type MessageAudience = (typeof MESSAGE_AUDIENCES)[number];

/**
 * 0 draft (editable, nobody sees it), 1 scheduled (published by the periodic job once its time has
 * come), 2 published (in its recipients' inboxes), 3 recalled (no longer shown to anybody).
 */
export const MESSAGE_STATES = { draft: 0, scheduled: 1, published: 2, recalled: 3 } as const;
export const MESSAGE_STATE_VALUES = [0, 1, 2, 3] as const;

/** The terminals whose inbox shows a message of `terminal`. */
export function messageShownOn(terminal: MessageTerminal, where: "app" | "web"): boolean {
  return terminal === "both" || terminal === where;
}

/** Spec §4: 0 download/load, 1 image/chapter, 2 app experience, 3 other. */
export const FEEDBACK_TYPES = [0, 1, 2, 3] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

/** Spec §4: 0 to be read, 1 read, 2 needs handling, 3 handled. */
export const FEEDBACK_STATES = { unread: 0, read: 1, needsHandling: 2, handled: 3 } as const;
export const FEEDBACK_STATE_VALUES = [0, 1, 2, 3] as const;
export type FeedbackState = (typeof FEEDBACK_STATE_VALUES)[number];

/**
 * The feedback state only moves forward: to be read → read (a staff member opened it) → needs
 * handling → handled, and any step may be skipped (a read item handled at once). Staying in the
 * same state is allowed (a reply or an assignment without a change of state); nothing goes back.
 */
export function feedbackTransitionAllowed(from: number, to: number): boolean {
  return (FEEDBACK_STATE_VALUES as readonly number[]).includes(to) && to >= from;
}

/** How many media ids (pictures) a feedback item may carry. */
export const FEEDBACK_PICTURES_MAX = 9;

/**
 * Published content (spec §2 data center, §3 News / Data-center article, §4 document data type)
 * and the media it shows (covers, pictures in rich text, attachments).
 */

/** Document data type (enumeration `documentType`): 1 news, 2 install notes, 3 install video, 4 user manual, 5 troubleshooting, 6 Q&A. */
export const DOCUMENT_TYPES = [1, 2, 3, 4, 5, 6] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const NEWS_TYPE = 1;

/** Where content is shown (enumeration `contentTerminal`): 0 app, 1 web, 2 both. */
export const CONTENT_TERMINALS = [0, 1, 2] as const;
export const TERMINAL = { app: 0, web: 1, both: 2 } as const;

/** Publication state (enumeration `contentState`): 0 draft, 1 published. */
export const CONTENT_STATES = [0, 1] as const;
export const CONTENT_STATE = { draft: 0, published: 1 } as const;

/** Kinds of stored media: pictures (thumbnailed) and attachments (documents, videos). */
export const MEDIA_KINDS = ["image", "attachment"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/**
 * Content types accepted per kind, as sniffed from the bytes (never the name or the header).
 * Office documents are the OOXML ones file-type recognises; the older binary formats are not
 * told apart from other compound files and are refused.
 */
export const MEDIA_TYPES: Readonly<Record<MediaKind, readonly string[]>> = {
  image: ["image/png", "image/jpeg", "image/webp", "image/gif"],
  attachment: [
    "application/pdf",
    "video/mp4",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ],
};

/** Size limits per kind. Attachments share the firmware upload's bound (64 MB, its body time). */
export const MEDIA_MAX_BYTES: Readonly<Record<MediaKind, number>> = {
  image: 5 * 1024 * 1024,
  attachment: 64 * 1024 * 1024,
};

/** Width of an image's thumbnail, in pixels (narrower images are their own thumbnail). */
export const THUMBNAIL_WIDTH = 320;

/** Paths under which stored media are served (the rich-text sanitiser allows pictures from here). */
export const MEDIA_PATH_PREFIX = "/media/file/";

/** What a picture slide is (enumeration `bannerKind`): 1 a banner of the app's home, 2 a guide page shown at the app's first start. */
export const BANNER_KINDS = [1, 2] as const;
