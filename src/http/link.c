/*
 * link.c - the server's intrusive lists (the open connections of
 * conns.c, the streams of a set): each node starts with its struct
 * http__link, so a list holds its nodes themselves, with no allocation.
 */
#include "http_int.h"

void http__link_push(struct http__link **head, struct http__link *l)
{
    l->prev = NULL;
    l->next = *head;
    if (*head != NULL)
        (*head)->prev = l;
    *head = l;
}

void http__link_remove(struct http__link **head, struct http__link *l)
{
    if (l->prev != NULL)
        l->prev->next = l->next;
    else
        *head = l->next;
    if (l->next != NULL)
        l->next->prev = l->prev;
    l->prev = l->next = NULL;
}
