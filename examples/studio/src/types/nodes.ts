/**
 * Node catalog of the studio editor: one `NODE_DEFINITIONS` entry per node
 * type, and one `<PascalType>Data` type describing the `data` object a node of
 * that type carries on the canvas and in saved workflow JSON.
 */

import type {
  AspectRatio,
  CameraMotion,
  ImageProvider,
  ImageResolution,
  MusicProvider,
  SpeechProvider,
  UpscaleFactor,
  UpscaleProvider,
  VideoDuration,
  VideoProvider,
  VoiceId,
} from "@studio/types/providers";

export type NodeCategory = "input" | "logic" | "ai" | "video" | "audio" | "utility";

/** Lifecycle of one node during a workflow run. */
export type ExecutionStatus = "idle" | "queued" | "running" | "completed" | "failed";

/** What flows along an edge; the canvas only joins an output to an input of the same kind. */
export type ValueType = "text" | "list" | "image" | "video" | "audio";

/** One handle on a node's side. */
export interface HandleDefinition {
  id: string;
  type: ValueType;
  /** The most edges the canvas lets into this input (unset: any number). */
  maxConnections?: number;
}

export interface NodeDefinition {
  type: string;
  label: string;
  category: NodeCategory;
  creditCost?: number;
  description?: string;
  inputs: HandleDefinition[];
  outputs: HandleDefinition[];
  defaultData: Record<string, unknown>;
}

// ---------------------------------------------------------------------------
// Shared data shapes
// ---------------------------------------------------------------------------

export interface BaseNodeData {
  /** Title shown on the node header. */
  label: string;
  /**
   * Where the node is in the current run; the runner sets it.
   * @runner
   */
  executionStatus?: ExecutionStatus;
  /**
   * Why the last run failed, when `executionStatus` is "failed".
   * @runner
   */
  errorMessage?: string;
}

/** One output of a generation job; nodes keep every take, newest last. */
export interface GeneratedResult {
  /** Asset URL returned by the provider. */
  url: string;
  /** Job that produced the asset. */
  jobId: string;
  /** ISO 8601 time the job finished. */
  createdAt: string;
}

/** Fields the runner writes back onto a generation node once its job ends. */
export interface GenerationResultData extends BaseNodeData {
  /**
   * Id of the generation job that filled this node.
   * @result
   */
  currentJobId?: string;
  /**
   * Every take generated so far; the canvas reads this first.
   * @result
   */
  generatedResults?: GeneratedResult[];
}

export type ListDelimiter = "newline" | "comma" | "semicolon";
export type Transition = "cut" | "crossfade" | "fade-to-black";
export type NoteColor = "yellow" | "blue" | "pink" | "gray";

// ---------------------------------------------------------------------------
// Input nodes
// ---------------------------------------------------------------------------

export interface TextPromptData extends BaseNodeData {
  /** Text sent out of the `text` handle. */
  text: string;
  /**
   * Keep the text fixed even when an upstream run would rewrite it.
   * @default false
   */
  locked?: boolean;
}

export interface ListData extends BaseNodeData {
  /** Entries emitted together on the `items` handle. */
  items: string[];
  /**
   * How pasted text is split into entries.
   * @default "newline"
   */
  delimiter: ListDelimiter;
}

// ---------------------------------------------------------------------------
// Logic nodes
// ---------------------------------------------------------------------------

export interface LoopData extends BaseNodeData {
  /** Upper bound on iterations; 0 runs once per incoming item. */
  maxIterations: number;
  /**
   * Run iterations concurrently instead of one after another.
   * @default false
   */
  parallel: boolean;
  /**
   * Zero-based index of the item being processed.
   * @result
   */
  currentIndex?: number;
}

// ---------------------------------------------------------------------------
// AI nodes
// ---------------------------------------------------------------------------

export interface GenerateImageData extends GenerationResultData {
  /** What to draw. */
  prompt: string;
  /** Backend that renders the image. */
  provider: ImageProvider;
  /** Provider-specific model id. */
  model: string;
  /** Free-form style hint appended to the prompt. */
  style: string;
  /** Frame shape of the image. */
  aspectRatio: AspectRatio;
  /** What the image must not contain. */
  negativePrompt: string;
  /** Maps an input handle id to the data field it fills, e.g. `{ "in": "prompt" }`. */
  fieldMappings: Record<string, string>;
  /** Output resolution tier; providers without tiers ignore it. */
  resolution?: ImageResolution;
  /**
   * Random seed; -1 picks a new one each run.
   * @default -1
   */
  seed?: number;
  /** Image the provider should stay close to (character or style reference). */
  referenceImageUrl?: string;
  /**
   * Single reference image from the first editor release.
   * @deprecated Use referenceImageUrl.
   */
  referenceImage?: string;
  /**
   * URL of the latest generated image.
   * @result
   */
  generatedImageUrl?: string;
}

export interface UpscaleImageData extends GenerationResultData {
  /** Backend that enlarges the image. */
  provider: UpscaleProvider;
  /** How much each side is enlarged. */
  scale: UpscaleFactor;
  /** Image to upscale when nothing is wired into the `image` handle. */
  sourceImageUrl?: string;
  /** Maps an input handle id to the data field it fills. */
  fieldMappings: Record<string, string>;
  /**
   * URL of the upscaled image.
   * @result
   */
  generatedImageUrl?: string;
}

export interface ImageToVideoData extends GenerationResultData {
  /** Motion and action to animate. */
  prompt: string;
  /** Backend that renders the clip. */
  provider: VideoProvider;
  /** Provider-specific model id. */
  model: string;
  /** Clip length in seconds. */
  durationSeconds: VideoDuration;
  /** Frame shape of the clip; match the source image to avoid letterboxing. */
  aspectRatio: AspectRatio;
  /** What the clip must not show. */
  negativePrompt: string;
  /** Maps an input handle id to the data field it fills. */
  fieldMappings: Record<string, string>;
  /** Camera move across the clip. */
  camera: {
    /** Kind of move. */
    motion: CameraMotion;
    /**
     * Intensity from 0 (barely) to 1 (strong).
     * @minimum 0
     * @maximum 1
     */
    strength: number;
  };
  /** First frame when nothing is wired into the `image` handle. */
  sourceImageUrl?: string;
  /**
   * Ask the provider for a native soundtrack as well.
   * @default false
   */
  generateAudio?: boolean;
  /**
   * URL of the latest generated clip.
   * @result
   */
  generatedVideoUrl?: string;
}

export interface GenerateMusicData extends GenerationResultData {
  /** Mood, genre and instrumentation of the track. */
  prompt: string;
  /** Backend that composes the track. */
  provider: MusicProvider;
  /** Provider-specific model id. */
  model: string;
  /**
   * Track length in seconds.
   * @default 30
   */
  durationSeconds: number;
  /** Leave out vocals. */
  instrumental: boolean;
  /** Lyrics to sing; ignored when `instrumental` is true. */
  lyrics?: string;
  /** Sounds or instruments to avoid. */
  negativePrompt: string;
  /** Maps an input handle id to the data field it fills, e.g. `{ "in": "prompt" }`. */
  fieldMappings: Record<string, string>;
  /**
   * URL of the latest generated track.
   * @result
   */
  generatedAudioUrl?: string;
}

export interface TextToSpeechData extends GenerationResultData {
  /** Words to speak. */
  text: string;
  /** Backend that synthesises speech. */
  provider: SpeechProvider;
  /** Voice to speak with. */
  voice: VoiceId;
  /**
   * Playback speed multiplier.
   * @default 1
   */
  speed: number;
  /** Maps an input handle id to the data field it fills. */
  fieldMappings: Record<string, string>;
  /**
   * URL of the spoken audio.
   * @result
   */
  generatedAudioUrl?: string;
}

// ---------------------------------------------------------------------------
// Video nodes
// ---------------------------------------------------------------------------

export type TrimVideoData = BaseNodeData & {
  /** Seconds cut from the start of the clip. */
  startSeconds: number;
  /** Where the kept part ends, in seconds; unset keeps the rest of the clip. */
  endSeconds?: number;
  /**
   * URL of the trimmed clip.
   * @result
   */
  outputVideoUrl?: string;
};

export interface CombineVideosData extends BaseNodeData {
  /** How consecutive clips are joined. */
  transition: Transition;
  /** Length of each transition in seconds; ignored for "cut". */
  transitionSeconds: number;
  /**
   * Source node ids in playback order; empty means the order edges were added.
   * @nodeIds
   */
  order: string[];
  /**
   * URL of the combined video.
   * @result
   */
  outputVideoUrl?: string;
}

export interface MergeVideoAudioData extends BaseNodeData {
  /** Volume of the incoming audio, 0 to 1. */
  audioVolume: number;
  /**
   * Volume of the video's own soundtrack; 0 mutes it.
   * @default 0
   */
  videoVolume: number;
  /** Fades applied to the incoming audio. */
  fade: {
    /** Fade-in length in seconds. */
    inSeconds: number;
    /** Fade-out length in seconds. */
    outSeconds: number;
  };
  /** Cut the result to the shorter of the two inputs instead of padding with silence. */
  trimToShortest: boolean;
  /**
   * URL of the merged video.
   * @result
   */
  outputVideoUrl?: string;
}

// ---------------------------------------------------------------------------
// Audio nodes
// ---------------------------------------------------------------------------

export interface AdjustVolumeData extends BaseNodeData {
  /** Gain in decibels; negative values make the audio quieter. */
  gainDb: number;
  /** Normalise loudness before applying the gain. */
  normalize: boolean;
  /**
   * URL of the adjusted audio.
   * @result
   */
  outputAudioUrl?: string;
}

// ---------------------------------------------------------------------------
// Utility nodes
// ---------------------------------------------------------------------------

export type NoteData = {
  /** Title shown on the sticky note. */
  label: string;
  /** Note body; never sent to any other node. */
  text: string;
  /** Background colour of the note. */
  color: NoteColor;
};

/** Every node data shape the canvas can hold. */
export type StudioNodeData =
  | TextPromptData
  | ListData
  | LoopData
  | GenerateImageData
  | UpscaleImageData
  | ImageToVideoData
  | GenerateMusicData
  | TextToSpeechData
  | TrimVideoData
  | CombineVideosData
  | MergeVideoAudioData
  | AdjustVolumeData
  | NoteData;

// ---------------------------------------------------------------------------
// Definitions
// ---------------------------------------------------------------------------

/** Defaults every prompt-driven generation node starts from. */
const GENERATION_DEFAULTS = {
  fieldMappings: {},
  negativePrompt: "",
};

export const NODE_DEFINITIONS: NodeDefinition[] = [
  {
    type: "text-prompt",
    label: "Text Prompt",
    category: "input",
    description: "Holds a piece of text, such as a script line or prompt, for downstream nodes.",
    inputs: [],
    outputs: [{ id: "text", type: "text" }],
    defaultData: { label: "Text Prompt", text: "", locked: false },
  },
  {
    type: "list",
    label: "List",
    category: "input",
    description: "Holds an ordered list of text entries, typically one per shot or scene.",
    inputs: [],
    outputs: [{ id: "items", type: "list" }],
    defaultData: {
      label: "List",
      items: ["Item 1", "Item 2", "Item 3"],
      delimiter: "newline",
    },
  },
  {
    type: "loop",
    label: "Loop",
    category: "logic",
    description: "Runs the nodes after it once per incoming list entry.",
    inputs: [{ id: "items", type: "list", maxConnections: 1 }],
    outputs: [{ id: "item", type: "text" }],
    defaultData: { label: "Loop", maxIterations: 0, parallel: false },
  },
  {
    type: "generate-image",
    label: "Generate Image",
    category: "ai",
    creditCost: 5,
    description: "Generates a still image from a text prompt.",
    inputs: [{ id: "in", type: "text", maxConnections: 1 }],
    outputs: [{ id: "image", type: "image" }],
    defaultData: {
      ...GENERATION_DEFAULTS,
      label: "Generate Image",
      prompt: "",
      provider: "nano-banana-pro",
      model: "gemini-2.5-flash-image",
      style: "",
      aspectRatio: "16:9",
      seed: -1,
      referenceImageUrl: undefined,
    },
  },
  {
    type: "upscale-image",
    label: "Upscale Image",
    category: "ai",
    creditCost: 2,
    description: "Enlarges an image while sharpening its detail.",
    inputs: [{ id: "image", type: "image", maxConnections: 1 }],
    outputs: [{ id: "image", type: "image" }],
    defaultData: {
      label: "Upscale Image",
      provider: "topaz",
      scale: 2,
      fieldMappings: { image: "sourceImageUrl" },
    },
  },
  {
    type: "image-to-video",
    label: "Image to Video",
    category: "ai",
    creditCost: 20,
    description: "Animates a still image into a short video clip.",
    inputs: [
      { id: "image", type: "image", maxConnections: 1 },
      { id: "in", type: "text", maxConnections: 1 },
    ],
    outputs: [{ id: "video", type: "video" }],
    defaultData: {
      ...GENERATION_DEFAULTS,
      label: "Image to Video",
      prompt: "",
      provider: "kling",
      model: "kling-v2.1",
      durationSeconds: 5,
      aspectRatio: "16:9",
      camera: { motion: "zoom-in", strength: 0.5 },
      generateAudio: false,
    },
  },
  {
    type: "generate-music",
    label: "Generate Music",
    category: "ai",
    creditCost: 10,
    description: "Composes a music track from a description of its mood and style.",
    inputs: [{ id: "in", type: "text", maxConnections: 1 }],
    outputs: [{ id: "audio", type: "audio" }],
    defaultData: {
      ...GENERATION_DEFAULTS,
      label: "Generate Music",
      prompt: "",
      provider: "suno",
      model: "chirp-v4",
      durationSeconds: 30,
      instrumental: true,
    },
  },
  {
    type: "text-to-speech",
    label: "Text to Speech",
    category: "ai",
    creditCost: 3,
    description: "Speaks a piece of text aloud in a chosen voice.",
    inputs: [{ id: "text", type: "text", maxConnections: 1 }],
    outputs: [{ id: "audio", type: "audio" }],
    defaultData: {
      label: "Text to Speech",
      text: "",
      provider: "elevenlabs",
      voice: "aria",
      speed: 1,
      fieldMappings: { text: "text" },
    },
  },
  {
    type: "trim-video",
    label: "Trim Video",
    category: "video",
    description: "Keeps only part of a video clip.",
    inputs: [{ id: "video", type: "video", maxConnections: 1 }],
    outputs: [{ id: "video", type: "video" }],
    defaultData: { label: "Trim Video", startSeconds: 0, endSeconds: undefined },
  },
  {
    type: "combine-videos",
    label: "Combine Videos",
    category: "video",
    description: "Joins several clips into one video, in order, with optional transitions.",
    inputs: [{ id: "videos", type: "video" }],
    outputs: [{ id: "video", type: "video" }],
    defaultData: {
      label: "Combine Videos",
      transition: "cut",
      transitionSeconds: 0.5,
      order: [],
    },
  },
  {
    type: "merge-video-audio",
    label: "Merge Video & Audio",
    category: "video",
    description: "Lays an audio track over a video clip.",
    inputs: [
      { id: "video", type: "video", maxConnections: 1 },
      { id: "audio", type: "audio", maxConnections: 1 },
    ],
    outputs: [{ id: "video", type: "video" }],
    defaultData: {
      label: "Merge Video & Audio",
      audioVolume: 1,
      videoVolume: 0,
      fade: { inSeconds: 0, outSeconds: 1.5 },
      trimToShortest: true,
    },
  },
  {
    type: "adjust-volume",
    label: "Adjust Volume",
    category: "audio",
    description: "Raises or lowers the loudness of an audio track.",
    inputs: [{ id: "audio", type: "audio", maxConnections: 1 }],
    outputs: [{ id: "audio", type: "audio" }],
    defaultData: { label: "Adjust Volume", gainDb: -3, normalize: false },
  },
  {
    type: "note",
    label: "Note",
    category: "utility",
    description: "A sticky note for comments on the canvas; it never runs.",
    inputs: [],
    outputs: [],
    defaultData: { label: "Note", text: "", color: "yellow" },
  },
];
