/**
 * A save in two steps — truncate then write, or delete then create — whose writer is held off the CPU in
 * between (a loaded machine holds a process for tens of ms) looks, to a snapshot taken meanwhile, like an
 * emptied or a deleted file. A file emptied, or a folder whose entries changed, this recently may be such
 * a save: it must stay so this long to be taken as it looks. (Taken otherwise, Undo would write an empty
 * file, or delete a file that existed.)
 */
export const HELD_SAVE_MS = 500;
