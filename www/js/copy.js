/*
 * copy.js - copying a line of text and the phone's share sheet, where
 * each exists. The async clipboard is there only in a secure context
 * (https, or http on localhost): on plain http elsewhere the selected
 * field is copied the old way (document.execCommand('copy'), still in
 * every browser for this case), and when even that fails the field stays
 * selected for the player to copy by hand (issue 45 defect 8).
 */

/* Resolves to true once field's text is on the clipboard. */
export async function copyField(field)
{
    field.focus({ preventScroll: true });
    field.select();
    field.setSelectionRange?.(0, field.value.length);
    if (navigator.clipboard && window.isSecureContext) {
        try {
            await navigator.clipboard.writeText(field.value);
            return true;
        } catch {
            /* Refused (no permission, no focus): the old way below. */
        }
    }
    try {
        return document.execCommand('copy');
    } catch {
        return false;
    }
}

/* Whether the browser has a native share sheet (most phones). */
export function canShare()
{
    return typeof navigator.share === 'function';
}

/* Opens the share sheet with { text, url, title }: 'shared', 'cancelled'
   (the player closed it) or 'failed'. */
export async function shareNative(data)
{
    try {
        await navigator.share(data);
        return 'shared';
    } catch (err) {
        return err && err.name === 'AbortError' ? 'cancelled' : 'failed';
    }
}
