/**
 * Saved form of a workflow: what `update_workflow_json` accepts and the editor
 * loads. Node `data` objects follow the `<PascalType>Data` types in nodes.ts.
 */

import type { StudioNodeData } from "@studio/types/nodes";
import type { AspectRatio } from "@studio/types/providers";

export interface WorkflowNode {
  /** Unique within the workflow; edges refer to it. */
  id: string;
  /** A `type` from NODE_DEFINITIONS. */
  type: string;
  /** Canvas coordinates of the node's top-left corner. */
  position: { x: number; y: number };
  data: StudioNodeData;
}

export interface WorkflowEdge {
  /** Unique within the workflow. */
  id: string;
  /** Id of the node the edge leaves. */
  source: string;
  /** One of the source node's `outputs`. */
  sourceHandle: string;
  /** Id of the node the edge enters. */
  target: string;
  /** One of the target node's `inputs`. */
  targetHandle: string;
}

export interface WorkflowSettings {
  /** Aspect ratio new generation nodes start with. */
  defaultAspectRatio: AspectRatio;
  /** Most nodes the runner executes at once. */
  concurrency: number;
}

export interface Workflow {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  settings: WorkflowSettings;
}
