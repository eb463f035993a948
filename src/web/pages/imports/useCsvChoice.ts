import { useState } from 'react';
import { type CsvPreview, previewCsv } from './csvPreview';
import { chosenFileProblem } from './csvUpload';

/**
 * The file a person chose for an upload, its preview (from its first 64 KiB, never the whole
 * file), and why it cannot be sent, if it cannot. `choose` is the file input's `onChange`.
 */
export function useCsvChoice() {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setPreview(null);
    setProblem(null);
    if (!chosen) return;
    const refusal = chosenFileProblem(chosen.size);
    if (refusal) {
      setProblem(refusal);
      return;
    }
    try {
      setPreview(await previewCsv(chosen));
    } catch {
      setProblem('The file could not be read. Choose it again.');
    }
  };

  return {
    file,
    preview,
    problem,
    choose,
    /** Whether the file may go on to its preview and upload. */
    ready: file !== null && preview !== null && problem === null,
    clear: () => void choose(null),
  };
}
