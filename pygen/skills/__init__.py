"""Stage 3, skills: render the model into AUTO-GEN blocks and plan the skill files to write."""
