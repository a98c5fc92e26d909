export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  
  "public": {
          Tables: {
            "activity": {
                  Row: {
                    "actor_id": string | null,"created_at": string,"data": NonNullable<Json>,"id": number,"kind": string,"project_id": string | null,"task_id": string | null,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "actor_id"?: string | null,"created_at"?: string,"data"?: NonNullable<Json>,"id"?: never,"kind": string,"project_id"?: string | null,"task_id"?: string | null,"workspace_id": string
                  }
                  Update: {
                    "actor_id"?: string | null,"created_at"?: string,"data"?: NonNullable<Json>,"id"?: never,"kind"?: string,"project_id"?: string | null,"task_id"?: string | null,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "activity_actor_profile_fkey"
      columns: ["actor_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "activity_project_id_fkey"
      columns: ["project_id"]
isOneToOne: false
      referencedRelation: "projects"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "activity_task_id_fkey"
      columns: ["task_id"]
isOneToOne: false
      referencedRelation: "tasks"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "activity_workspace_id_fkey"
      columns: ["workspace_id"]
isOneToOne: false
      referencedRelation: "workspaces"
      referencedColumns: ["id"]
    }
                  ]
                },"attachments": {
                  Row: {
                    "content_type": string,"created_at": string,"id": string,"name": string,"path": string,"size": number,"task_id": string,"uploaded_by": string | null,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "content_type": string,"created_at"?: string,"id"?: string,"name": string,"path": string,"size": number,"task_id": string,"uploaded_by"?: string | null,"workspace_id": string
                  }
                  Update: {
                    "content_type"?: string,"created_at"?: string,"id"?: string,"name"?: string,"path"?: string,"size"?: number,"task_id"?: string,"uploaded_by"?: string | null,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "attachments_task_fkey"
      columns: ["task_id","workspace_id"]
isOneToOne: false
      referencedRelation: "tasks"
      referencedColumns: ["id","workspace_id"]
    },{
      foreignKeyName: "attachments_uploader_profile_fkey"
      columns: ["uploaded_by"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "attachments_workspace_id_fkey"
      columns: ["workspace_id"]
isOneToOne: false
      referencedRelation: "workspaces"
      referencedColumns: ["id"]
    }
                  ]
                },"comments": {
                  Row: {
                    "author_id": string | null,"body": string,"client_key": string | null,"created_at": string,"edited_at": string | null,"id": string,"task_id": string,"updated_at": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "author_id"?: string | null,"body": string,"client_key"?: string | null,"created_at"?: string,"edited_at"?: string | null,"id"?: string,"task_id": string,"updated_at"?: string,"workspace_id": string
                  }
                  Update: {
                    "author_id"?: string | null,"body"?: string,"client_key"?: string | null,"created_at"?: string,"edited_at"?: string | null,"id"?: string,"task_id"?: string,"updated_at"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "comments_author_profile_fkey"
      columns: ["author_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "comments_task_fkey"
      columns: ["task_id","workspace_id"]
isOneToOne: false
      referencedRelation: "tasks"
      referencedColumns: ["id","workspace_id"]
    }
                  ]
                },"invitations": {
                  Row: {
                    "accepted_at": string | null,"accepted_by": string | null,"created_at": string,"email": string,"expires_at": string,"id": string,"invited_by": string | null,"revoked_at": string | null,"role": Database["public"]['Enums']["workspace_role"],"token_hash": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "accepted_at"?: string | null,"accepted_by"?: string | null,"created_at"?: string,"email": string,"expires_at"?: string,"id"?: string,"invited_by"?: string | null,"revoked_at"?: string | null,"role": Database["public"]['Enums']["workspace_role"],"token_hash": string,"workspace_id": string
                  }
                  Update: {
                    "accepted_at"?: string | null,"accepted_by"?: string | null,"created_at"?: string,"email"?: string,"expires_at"?: string,"id"?: string,"invited_by"?: string | null,"revoked_at"?: string | null,"role"?: Database["public"]['Enums']["workspace_role"],"token_hash"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "invitations_workspace_id_fkey"
      columns: ["workspace_id"]
isOneToOne: false
      referencedRelation: "workspaces"
      referencedColumns: ["id"]
    }
                  ]
                },"labels": {
                  Row: {
                    "color": string,"created_at": string,"id": string,"name": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "color": string,"created_at"?: string,"id"?: string,"name": string,"workspace_id": string
                  }
                  Update: {
                    "color"?: string,"created_at"?: string,"id"?: string,"name"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "labels_workspace_id_fkey"
      columns: ["workspace_id"]
isOneToOne: false
      referencedRelation: "workspaces"
      referencedColumns: ["id"]
    }
                  ]
                },"notification_preferences": {
                  Row: {
                    "email_frequency": string,"email_kinds": (string)[],"inbox_kinds": (string)[],"updated_at": string,"user_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "email_frequency"?: string,"email_kinds"?: (string)[],"inbox_kinds"?: (string)[],"updated_at"?: string,"user_id": string
                  }
                  Update: {
                    "email_frequency"?: string,"email_kinds"?: (string)[],"inbox_kinds"?: (string)[],"updated_at"?: string,"user_id"?: string
                  }
                  Relationships: [
                    
                  ]
                },"notifications": {
                  Row: {
                    "actor_id": string | null,"archived_at": string | null,"comment_id": string | null,"created_at": string,"data": NonNullable<Json>,"id": number,"kind": string,"read_at": string | null,"recipient_id": string,"task_id": string | null,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "actor_id"?: string | null,"archived_at"?: string | null,"comment_id"?: string | null,"created_at"?: string,"data"?: NonNullable<Json>,"id"?: never,"kind": string,"read_at"?: string | null,"recipient_id": string,"task_id"?: string | null,"workspace_id": string
                  }
                  Update: {
                    "actor_id"?: string | null,"archived_at"?: string | null,"comment_id"?: string | null,"created_at"?: string,"data"?: NonNullable<Json>,"id"?: never,"kind"?: string,"read_at"?: string | null,"recipient_id"?: string,"task_id"?: string | null,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "notifications_actor_profile_fkey"
      columns: ["actor_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notifications_comment_id_fkey"
      columns: ["comment_id"]
isOneToOne: false
      referencedRelation: "comments"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notifications_task_fkey"
      columns: ["task_id","workspace_id"]
isOneToOne: false
      referencedRelation: "tasks"
      referencedColumns: ["id","workspace_id"]
    },{
      foreignKeyName: "notifications_workspace_id_fkey"
      columns: ["workspace_id"]
isOneToOne: false
      referencedRelation: "workspaces"
      referencedColumns: ["id"]
    }
                  ]
                },"profiles": {
                  Row: {
                    "avatar_path": string | null,"created_at": string,"display_name": string,"id": string,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "avatar_path"?: string | null,"created_at"?: string,"display_name": string,"id": string,"updated_at"?: string
                  }
                  Update: {
                    "avatar_path"?: string | null,"created_at"?: string,"display_name"?: string,"id"?: string,"updated_at"?: string
                  }
                  Relationships: [
                    
                  ]
                },"project_statuses": {
                  Row: {
                    "category": Database["public"]['Enums']["status_category"],"created_at": string,"id": string,"name": string,"position": number,"project_id": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "category": Database["public"]['Enums']["status_category"],"created_at"?: string,"id"?: string,"name": string,"position"?: number,"project_id": string,"workspace_id": string
                  }
                  Update: {
                    "category"?: Database["public"]['Enums']["status_category"],"created_at"?: string,"id"?: string,"name"?: string,"position"?: number,"project_id"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "project_statuses_project_fkey"
      columns: ["project_id","workspace_id"]
isOneToOne: false
      referencedRelation: "projects"
      referencedColumns: ["id","workspace_id"]
    }
                  ]
                },"projects": {
                  Row: {
                    "archived_at": string | null,"client_key": string | null,"created_at": string,"created_by": string | null,"description": string,"id": string,"key": string,"name": string,"next_task_number": number,"updated_at": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "archived_at"?: string | null,"client_key"?: string | null,"created_at"?: string,"created_by"?: string | null,"description"?: string,"id"?: string,"key": string,"name": string,"next_task_number"?: number,"updated_at"?: string,"workspace_id": string
                  }
                  Update: {
                    "archived_at"?: string | null,"client_key"?: string | null,"created_at"?: string,"created_by"?: string | null,"description"?: string,"id"?: string,"key"?: string,"name"?: string,"next_task_number"?: number,"updated_at"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "projects_workspace_id_fkey"
      columns: ["workspace_id"]
isOneToOne: false
      referencedRelation: "workspaces"
      referencedColumns: ["id"]
    }
                  ]
                },"saved_views": {
                  Row: {
                    "created_at": string,"id": string,"kind": string,"name": string,"owner_id": string,"project_id": string,"query": NonNullable<Json>,"shared": boolean,"updated_at": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"id"?: string,"kind"?: string,"name": string,"owner_id"?: string,"project_id": string,"query"?: NonNullable<Json>,"shared"?: boolean,"updated_at"?: string,"workspace_id": string
                  }
                  Update: {
                    "created_at"?: string,"id"?: string,"kind"?: string,"name"?: string,"owner_id"?: string,"project_id"?: string,"query"?: NonNullable<Json>,"shared"?: boolean,"updated_at"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "saved_views_project_fkey"
      columns: ["project_id","workspace_id"]
isOneToOne: false
      referencedRelation: "projects"
      referencedColumns: ["id","workspace_id"]
    },{
      foreignKeyName: "saved_views_workspace_id_fkey"
      columns: ["workspace_id"]
isOneToOne: false
      referencedRelation: "workspaces"
      referencedColumns: ["id"]
    }
                  ]
                },"task_history": {
                  Row: {
                    "actor_id": string | null,"created_at": string,"data": NonNullable<Json>,"id": number,"kind": string,"task_id": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "actor_id"?: string | null,"created_at"?: string,"data"?: NonNullable<Json>,"id"?: never,"kind": string,"task_id": string,"workspace_id": string
                  }
                  Update: {
                    "actor_id"?: string | null,"created_at"?: string,"data"?: NonNullable<Json>,"id"?: never,"kind"?: string,"task_id"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "task_history_task_fkey"
      columns: ["task_id","workspace_id"]
isOneToOne: false
      referencedRelation: "tasks"
      referencedColumns: ["id","workspace_id"]
    }
                  ]
                },"task_imports": {
                  Row: {
                    "created_at": string,"created_by": string,"file_name": string,"id": string,"payload": NonNullable<Json>,"project_id": string,"source": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"created_by"?: string,"file_name"?: string,"id"?: string,"payload": NonNullable<Json>,"project_id": string,"source": string,"workspace_id": string
                  }
                  Update: {
                    "created_at"?: string,"created_by"?: string,"file_name"?: string,"id"?: string,"payload"?: NonNullable<Json>,"project_id"?: string,"source"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "task_imports_project_fkey"
      columns: ["project_id","workspace_id"]
isOneToOne: false
      referencedRelation: "projects"
      referencedColumns: ["id","workspace_id"]
    }
                  ]
                },"task_labels": {
                  Row: {
                    "created_at": string,"label_id": string,"task_id": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"label_id": string,"task_id": string,"workspace_id": string
                  }
                  Update: {
                    "created_at"?: string,"label_id"?: string,"task_id"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "task_labels_label_fkey"
      columns: ["label_id","workspace_id"]
isOneToOne: false
      referencedRelation: "labels"
      referencedColumns: ["id","workspace_id"]
    },{
      foreignKeyName: "task_labels_task_fkey"
      columns: ["task_id","workspace_id"]
isOneToOne: false
      referencedRelation: "tasks"
      referencedColumns: ["id","workspace_id"]
    }
                  ]
                },"task_links": {
                  Row: {
                    "created_at": string,"created_by": string | null,"from_task_id": string,"id": string,"kind": string,"to_task_id": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"created_by"?: string | null,"from_task_id": string,"id"?: string,"kind": string,"to_task_id": string,"workspace_id": string
                  }
                  Update: {
                    "created_at"?: string,"created_by"?: string | null,"from_task_id"?: string,"id"?: string,"kind"?: string,"to_task_id"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "task_links_from_fkey"
      columns: ["from_task_id","workspace_id"]
isOneToOne: false
      referencedRelation: "tasks"
      referencedColumns: ["id","workspace_id"]
    },{
      foreignKeyName: "task_links_to_fkey"
      columns: ["to_task_id","workspace_id"]
isOneToOne: false
      referencedRelation: "tasks"
      referencedColumns: ["id","workspace_id"]
    }
                  ]
                },"task_watchers": {
                  Row: {
                    "created_at": string,"task_id": string,"user_id": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"task_id": string,"user_id": string,"workspace_id": string
                  }
                  Update: {
                    "created_at"?: string,"task_id"?: string,"user_id"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "task_watchers_task_fkey"
      columns: ["task_id","workspace_id"]
isOneToOne: false
      referencedRelation: "tasks"
      referencedColumns: ["id","workspace_id"]
    }
                  ]
                },"tasks": {
                  Row: {
                    "assignee_id": string | null,"client_key": string | null,"created_at": string,"created_by": string | null,"deleted_at": string | null,"deleted_by": string | null,"description": string,"due_date": string | null,"id": string,"number": number,"parent_id": string | null,"position": number,"priority": Database["public"]['Enums']["task_priority"],"project_id": string,"status_id": string,"title": string,"updated_at": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "assignee_id"?: string | null,"client_key"?: string | null,"created_at"?: string,"created_by"?: string | null,"deleted_at"?: string | null,"deleted_by"?: string | null,"description"?: string,"due_date"?: string | null,"id"?: string,"number"?: number,"parent_id"?: string | null,"position"?: number,"priority"?: Database["public"]['Enums']["task_priority"],"project_id": string,"status_id": string,"title": string,"updated_at"?: string,"workspace_id": string
                  }
                  Update: {
                    "assignee_id"?: string | null,"client_key"?: string | null,"created_at"?: string,"created_by"?: string | null,"deleted_at"?: string | null,"deleted_by"?: string | null,"description"?: string,"due_date"?: string | null,"id"?: string,"number"?: number,"parent_id"?: string | null,"position"?: number,"priority"?: Database["public"]['Enums']["task_priority"],"project_id"?: string,"status_id"?: string,"title"?: string,"updated_at"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "tasks_assignee_fkey"
      columns: ["workspace_id","assignee_id"]
isOneToOne: false
      referencedRelation: "workspace_members"
      referencedColumns: ["workspace_id","user_id"]
    },{
      foreignKeyName: "tasks_assignee_profile_fkey"
      columns: ["assignee_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "tasks_parent_fkey"
      columns: ["parent_id","project_id"]
isOneToOne: false
      referencedRelation: "tasks"
      referencedColumns: ["id","project_id"]
    },{
      foreignKeyName: "tasks_project_fkey"
      columns: ["project_id","workspace_id"]
isOneToOne: false
      referencedRelation: "projects"
      referencedColumns: ["id","workspace_id"]
    },{
      foreignKeyName: "tasks_status_fkey"
      columns: ["status_id","project_id"]
isOneToOne: false
      referencedRelation: "project_statuses"
      referencedColumns: ["id","project_id"]
    }
                  ]
                },"workspace_members": {
                  Row: {
                    "created_at": string,"role": Database["public"]['Enums']["workspace_role"],"user_id": string,"workspace_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"role": Database["public"]['Enums']["workspace_role"],"user_id": string,"workspace_id": string
                  }
                  Update: {
                    "created_at"?: string,"role"?: Database["public"]['Enums']["workspace_role"],"user_id"?: string,"workspace_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "workspace_members_profile_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "workspace_members_workspace_id_fkey"
      columns: ["workspace_id"]
isOneToOne: false
      referencedRelation: "workspaces"
      referencedColumns: ["id"]
    }
                  ]
                },"workspaces": {
                  Row: {
                    "created_at": string,"created_by": string | null,"id": string,"is_personal": boolean,"name": string,"slug": string,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"created_by"?: string | null,"id"?: string,"is_personal"?: boolean,"name": string,"slug": string,"updated_at"?: string
                  }
                  Update: {
                    "created_at"?: string,"created_by"?: string | null,"id"?: string,"is_personal"?: boolean,"name"?: string,"slug"?: string,"updated_at"?: string
                  }
                  Relationships: [
                    
                  ]
                }
          }
          Views: {
            [_ in never]: never
          }
          Functions: {
            "accept_invitation":
{ Args: { "token": string }; Returns: {
              "created_at": string,
"created_by": string | null,
"id": string,
"is_personal": boolean,
"name": string,
"slug": string,
"updated_at": string
            }
                          SetofOptions: {
        from: "*"
        to: "workspaces"
        isOneToOne: true
        isSetofReturn: false
      } },
"account_page":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"archived_project_ids":
{ Args: Record<PropertyKey, never>; Returns: string[]
                           },
"attachment_folder_ok":
{ Args: { "at_least": Database["public"]['Enums']["workspace_role"],"object_name": string }; Returns: boolean
                           },
"board_page":
{ Args: { "filters"?: Json,"project_key": string,"shown"?: Json,"workspace_slug": string }; Returns: Json
                           },
"bulk_edit_tasks":
{ Args: { "changes": Json,"task_ids": (string)[] }; Returns: Json
                           },
"checklist_items":
{ Args: { "body": string }; Returns: {
              "checked": boolean,"item_text": string,"line": number,"n": number
            }[]
                           },
"checklist_ticked":
{ Args: { "body": string,"checked": boolean,"item": number,"item_text": string }; Returns: string
                           },
"claim_notification_emails":
{ Args: { "interval_seconds"?: number,"lease_seconds"?: number,"max_emails"?: number }; Returns: Json
                           },
"comment_search_words":
{ Args: { "body": string }; Returns: unknown
                           },
"create_invitation":
{ Args: { "email": string,"role": Database["public"]['Enums']["workspace_role"],"workspace_id": string }; Returns: {
              "invitation_id": string,"token": string
            }[]
                           },
"create_workspace":
{ Args: { "name": string,"slug": string }; Returns: {
              "created_at": string,
"created_by": string | null,
"id": string,
"is_personal": boolean,
"name": string,
"slug": string,
"updated_at": string
            }
                          SetofOptions: {
        from: "*"
        to: "workspaces"
        isOneToOne: true
        isSetofReturn: false
      } },
"delete_project_status":
{ Args: { "move_to"?: string,"status_id": string }; Returns: undefined
                           },
"fellow_member_ids":
{ Args: Record<PropertyKey, never>; Returns: string[]
                           },
"has_role":
{ Args: { "at_least": Database["public"]['Enums']["workspace_role"],"ws": string }; Returns: boolean
                           },
"import_tasks":
{ Args: { "import_id": string }; Returns: {
              "created": number,"first_number": number,"last_number": number
            }[]
                           },
"invitation_preview":
{ Args: { "token": string }; Returns: {
              "email": string,"role": Database["public"]['Enums']["workspace_role"],"status": string,"workspace_name": string
            }[]
                           },
"invitation_token_hash":
{ Args: { "token": string }; Returns: string
                           },
"is_member":
{ Args: { "ws": string }; Returns: boolean
                           },
"list_page":
{ Args: { "dir"?: string,"filters"?: Json,"project_key": string,"shown"?: number,"sort"?: string,"workspace_slug": string }; Returns: Json
                           },
"may_join_board_channel":
{ Args: { "topic": string }; Returns: boolean
                           },
"members_by_email":
{ Args: { "emails": (string)[],"workspace_id": string }; Returns: {
              "email": string,"user_id": string
            }[]
                           },
"mfa_satisfied":
{ Args: Record<PropertyKey, never>; Returns: boolean
                           },
"move_project_status":
{ Args: { "direction"?: string,"status_id": string,"to_index"?: number }; Returns: undefined
                           },
"move_task":
{ Args: { "after_task_id"?: string,"before_task_id"?: string,"status_id": string,"task_id": string }; Returns: {
              "assignee_id": string | null,
"client_key": string | null,
"created_at": string,
"created_by": string | null,
"deleted_at": string | null,
"deleted_by": string | null,
"description": string,
"due_date": string | null,
"id": string,
"number": number,
"parent_id": string | null,
"position": number,
"priority": Database["public"]['Enums']["task_priority"],
"project_id": string,
"status_id": string,
"title": string,
"updated_at": string,
"workspace_id": string
            }
                          SetofOptions: {
        from: "*"
        to: "tasks"
        isOneToOne: true
        isSetofReturn: false
      } },
"my_sessions":
{ Args: Record<PropertyKey, never>; Returns: {
              "created_at": string,"id": string,"is_current": boolean,"last_seen_at": string,"user_agent": string
            }[]
                           },
"my_unread_notifications":
{ Args: Record<PropertyKey, never>; Returns: number
                           },
"my_workspace_ids":
{ Args: { "at_least"?: Database["public"]['Enums']["workspace_role"] }; Returns: string[]
                           },
"next_project_key":
{ Args: { "name": string,"workspace": string }; Returns: string
                           },
"notification_email_failed":
{ Args: { "email_id": number,"error": string,"retry_seconds"?: number }; Returns: undefined
                           },
"notification_email_sent":
{ Args: { "email_id": number }; Returns: undefined
                           },
"overview_page":
{ Args: { "activity_limit"?: number,"my_task_limit"?: number,"today": string,"workspace_slug": string }; Returns: Json
                           },
"owned_workspaces":
{ Args: Record<PropertyKey, never>; Returns: {
              "id": string,"is_personal": boolean,"name": string,"other_members": number,"slug": string
            }[]
                           },
"project_is_active":
{ Args: { "project": string }; Returns: boolean
                           },
"project_key_from_name":
{ Args: { "name": string }; Returns: string
                           },
"purge_stale_imports":
{ Args: { "max_rows"?: number }; Returns: number
                           },
"purge_trash":
{ Args: { "max_tasks"?: number }; Returns: number
                           },
"resend_invitation":
{ Args: { "invitation_id": string }; Returns: string
                           },
"restore_task":
{ Args: { "task_id": string }; Returns: Json
                           },
"saved_views_of":
{ Args: { "workspace_id": string }; Returns: Json
                           },
"search_task_hits":
{ Args: { "anywhere": unknown,"assignee": string,"key_number": number,"key_project": string,"label_ids": (string)[],"people": (string)[],"size": number,"status_ids": (string)[],"ws": string }; Returns: {
              "comment_id": string,"rank": number,"task_id": string,"tier": number,"updated_at": string
            }[]
                           },
"search_task_passes":
{ Args: { "assignee": string,"assignee_id": string,"label_ids": (string)[],"people": (string)[],"status_id": string,"status_ids": (string)[],"task_id": string }; Returns: boolean
                           },
"search_tasks":
{ Args: { "assignee"?: string,"key_number"?: number,"key_project"?: string,"label"?: string,"max_results"?: number,"project"?: string,"state"?: string,"status"?: string,"words"?: (string)[],"workspace_slug": string }; Returns: {
              "id": string,"matched": string,"number": number,"project_key": string,"project_name": string,"snippet": string,"status_category": string,"status_name": string,"title": string,"title_marked": string
            }[]
                           },
"search_tsquery":
{ Args: { "words": (string)[] }; Returns: unknown
                           },
"session_is_active":
{ Args: Record<PropertyKey, never>; Returns: boolean
                           },
"session_status":
{ Args: Record<PropertyKey, never>; Returns: string
                           },
"set_task_labels":
{ Args: { "label_ids": (string)[],"task_id": string }; Returns: undefined
                           },
"shares_workspace_with":
{ Args: { "other": string }; Returns: boolean
                           },
"sign_out_session":
{ Args: { "session_id": string }; Returns: boolean
                           },
"storage_trash":
{ Args: { "max_items"?: number }; Returns: {
              "bucket_id": string,"name": string
            }[]
                           },
"storage_trash_emptied":
{ Args: { "bucket": string,"names": (string)[] }; Returns: undefined
                           },
"take_rate_limits":
{ Args: { "capacities": (number)[],"keys": (string)[],"window_seconds": number }; Returns: number
                           },
"task_is_writable":
{ Args: { "task": string }; Returns: boolean
                           },
"task_search_words":
{ Args: { "description": string,"title": string }; Returns: unknown
                           },
"text_is_date":
{ Args: { "value": string }; Returns: boolean
                           },
"text_is_uuid":
{ Args: { "value": string }; Returns: boolean
                           },
"tick_checklist_item":
{ Args: { "checked": boolean,"item": number,"item_text": string,"task_id": string }; Returns: undefined
                           },
"transfer_ownership":
{ Args: { "new_owner": string,"ws": string }; Returns: undefined
                           },
"trash_task":
{ Args: { "task_id": string }; Returns: Json
                           },
"trashed_task_ids":
{ Args: Record<PropertyKey, never>; Returns: string[]
                           },
"trashed_tasks":
{ Args: { "workspace_id": string }; Returns: {
              "deleted_at": string,"deleted_by_name": string,"id": string,"number": number,"project_archived": boolean,"project_id": string,"project_key": string,"project_name": string,"purge_at": string,"title": string
            }[]
                           },
"unsubscribe_notification_emails":
{ Args: { "apply"?: boolean,"token": string }; Returns: string
                           },
"workspace_role_of":
{ Args: { "ws": string }; Returns: Database["public"]['Enums']["workspace_role"]
                           }
          }
          Enums: {
            "status_category": "backlog"|"unstarted"|"started"|"completed"|"canceled","task_priority": "none"|"low"|"medium"|"high"|"urgent","workspace_role": "viewer"|"member"|"admin"|"owner"
          }
          CompositeTypes: {
            [_ in never]: never
          }
        }
}

type DatabaseWithoutInternals = Omit<Database, '__InternalSupabase'>

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
  ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
      Row: infer R
    }
    ? R
    : never
  : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
  ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Insert: infer I
    }
    ? I
    : never
  : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
  ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Update: infer U
    }
    ? U
    : never
  : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
  ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
  : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
  ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
  : never

export const Constants = {
  "public": {
          Enums: {
            "status_category": ["backlog", "unstarted", "started", "completed", "canceled"],"task_priority": ["none", "low", "medium", "high", "urgent"],"workspace_role": ["viewer", "member", "admin", "owner"]
          }
        }
} as const
