import { useRef, useState } from 'react';
import { DRAFT_KEY_PREFIX } from './session';

/**
 * Where a half-written message belongs: whose it is (a signed-in account's id, or a guest on the
 * public pages) and which box it was typed in (`chat.3`, `conversation.12`).
 */
export type DraftPlace = { owner: number | 'guest'; place: string };

const keyOf = ({ owner, place }: DraftPlace) => `${DRAFT_KEY_PREFIX}${owner}.${place}`;

function readDraft(place: DraftPlace): string {
  try {
    return sessionStorage.getItem(keyOf(place)) ?? '';
  } catch {
    return ''; // storage refused: a draft lasts as long as its box
  }
}

function keepDraft(place: DraftPlace, text: string) {
  try {
    if (text) sessionStorage.setItem(keyOf(place), text);
    else sessionStorage.removeItem(keyOf(place));
  } catch {
    // storage refused: nothing kept
  }
}

/**
 * A message box's text, kept for this tab's session (sessionStorage): switching channel or
 * conversation, going to another page and back, or reloading finds the text where it was left.
 * Kept under its owner, so whoever signs in next on this tab never finds someone else's words in
 * the box (or sends them under their own name); signing out forgets them all (`signOut`). `latest`
 * is the text in the box now, for a send that finishes after more was typed. The box must be keyed
 * by its place (a new place, a new box).
 */
export function useDraft(place: DraftPlace) {
  const [text, setTextState] = useState(() => readDraft(place));
  const latest = useRef(text);
  const setText = (value: string) => {
    latest.current = value;
    setTextState(value);
    keepDraft(place, value);
  };
  return { text, setText, latest };
}
