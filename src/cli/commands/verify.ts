import type { ReceiptJSON } from '../../domain/receipt.js';
import type { Command } from '../command.js';
import { CONTRACT_FILE_OPTION, plannerOf } from '../contract-files.js';
import { DOCUMENT_FIELDS, readDocumentField } from '../document-field.js';
import { ExitCode } from '../exit-codes.js';
import { writeJSON } from '../io.js';
import { accepts, decodeRequest, type RequestFields } from '../request-fields.js';
import { readRequestBytes } from '../stdin.js';

const REQUEST: RequestFields = {
  ...DOCUMENT_FIELDS,
  receipt: {
    help: 'the receipt to check against',
    required: true,
    expected: 'a receipt object',
    accepts: accepts.object,
  },
};

/** `verify`: exit 0 when the document holds the receipt's intact owned entry, else 1. */
export const verifyCommand: Command = {
  name: 'verify',
  summary: "check that a document holds a receipt's intact owned entry",
  description: `Checks that the document holds the receipt's owned entry, intact and unique.
A document that does not is refused: nothing on stdout, the error on stderr, exit 1.`,
  options: { ...CONTRACT_FILE_OPTION },
  request: REQUEST,
  output: '{"owned": true}',
  jsonOnly: true,
  async run({ options, stdin, io }) {
    const request = decodeRequest(await readRequestBytes(stdin), REQUEST);
    const document = readDocumentField(request) ?? new Uint8Array(0);
    // The receipt's fields are validated by verifyOwned exactly as strictly as Receipt.fromJSON.
    (await plannerOf(options)).verifyOwned(document, request.receipt as ReceiptJSON);
    writeJSON(io, { owned: true });
    return ExitCode.Ok;
  },
};
