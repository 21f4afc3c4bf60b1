DROP TABLE campaign_webhooks;
DROP TABLE password_resets;
DROP TABLE notification_prefs;
DROP TABLE outbox;
DROP TABLE notifications;
