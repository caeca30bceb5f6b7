/**
 * Providers, models and enumerations shared by the node data types and the
 * generation tools. The MCP tools mirror these unions as enums, so a value
 * added here must be added to the matching tool parameter too.
 */

/** Text-to-image backends. */
export type ImageProvider =
  | "flux"
  | "flux-pro"
  | "flux-kontext"
  | "nano-banana-pro"
  | "ideogram";

/** Image-to-video backends. */
export type VideoProvider = "kling" | "veo-3" | "runway-gen4" | "hailuo";

/** Music generation backends. */
export type MusicProvider = "suno" | "udio" | "stable-audio";

/** Image upscaling backends. */
export type UpscaleProvider = "topaz" | "real-esrgan";

/** Text-to-speech backends. */
export type SpeechProvider = "elevenlabs" | "openai-tts";

/** Frame shapes every image and video provider accepts. */
export type AspectRatio = "1:1" | "16:9" | "9:16" | "4:3" | "3:4" | "21:9";

/** Output resolution tiers for image generation. */
export type ImageResolution = "1k" | "2k" | "4k";

/** Clip lengths, in seconds, the video providers can render. */
export type VideoDuration = 5 | 10;

/** How much an upscaler enlarges each side. */
export type UpscaleFactor = 2 | 4;

/** Camera movement applied when animating a still image. */
export type CameraMotion =
  | "static"
  | "pan-left"
  | "pan-right"
  | "zoom-in"
  | "zoom-out"
  | "orbit";

/** Voices available to text-to-speech; the array also feeds the voice picker. */
export const VOICE_IDS = ["aria", "brian", "charlotte", "daniel", "nova"] as const;
export type VoiceId = (typeof VOICE_IDS)[number];
